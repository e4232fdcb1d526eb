import { AnswerTooLargeError } from '@argus/ai';
import type { TargetPolicy } from '@argus/engine';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';

/** A refused connection, said as the policy says it (no body of whatever would have answered). */
export class PolicyRefusedError extends Error {
  constructor(reason: string) {
    super(`The server may not call this address: ${reason}.`);
    this.name = 'PolicyRefusedError';
  }
}

/** What a model API answers stays far below this; a larger body is read no further. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface PolicyFetchOptions {
  /**
   * The most of one response body that is read, counted AFTER decompression (a 1.5 MB gzip body can
   * inflate to gigabytes): the read stops as soon as it passes, with an `AnswerTooLargeError`.
   * @default 8 MiB (DEFAULT_MAX_RESPONSE_BYTES)
   */
  maxResponseBytes?: number;
}

/**
 * A fetch for calls to addresses a user chose (a model's base URL): each request's URL is judged by
 * the browser's target policy, redirects are refused, every connection is judged again as it is
 * opened (with its real port: the Argus server itself is refused by address and port) and made to
 * exactly the address that was judged (a DNS answer that changes in between, to cloud metadata or to
 * this server, cannot slip through), and no body is read past `maxResponseBytes`.
 */
export function policyFetch(
  policy: Pick<TargetPolicy, 'check'>,
  options: PolicyFetchOptions = {},
): typeof globalThis.fetch {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const connector = buildConnector({});
  const agent = new Agent({
    connect: (opts, callback) => {
      const bare = opts.hostname.replace(/^\[|\]$/g, '');
      const host = bare.includes(':') ? `[${bare}]` : bare;
      const port = opts.port || (opts.protocol === 'https:' ? '443' : '80');
      policy
        .check(`${opts.protocol}//${host}:${port}/`)
        .then((decision) => {
          if (!decision.allowed)
            return callback(
              Object.assign(new PolicyRefusedError(decision.reason), { code: 'EPOLICY' }),
              null,
            );
          // Connect to the judged address; `host` (unchanged) still names the server for TLS (SNI and
          // the certificate check) and the Host header.
          connector({ ...opts, hostname: decision.addresses[0] }, callback);
        })
        .catch((error: Error) => callback(error, null));
    },
  });
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    // The whole URL first (its port too: the Argus server itself is refused by address and port).
    const decision = await policy.check(url);
    if (!decision.allowed) throw new PolicyRefusedError(decision.reason);
    const response = await undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      // A model API does not redirect; one that does could point anywhere.
      redirect: 'error',
      dispatcher: agent,
    });
    return capped(response as unknown as Response, maxBytes);
  }) as unknown as typeof globalThis.fetch;
}

/**
 * globalThis.fetch with the same cap on what is read (no target policy): for the operator's own
 * model (AI_BASE_URL), which may be a local server the policy would refuse, but whose answers are
 * no more trusted to be small.
 */
export function cappedFetch(options: PolicyFetchOptions = {}): typeof globalThis.fetch {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) =>
    capped(await globalThis.fetch(input, init), maxBytes)) as typeof globalThis.fetch;
}

/**
 * The same response, its body counted as it is read (after fetch has decompressed it): past `maxBytes`
 * the body errors with AnswerTooLargeError and the download is cancelled, so at most about `maxBytes`
 * plus one chunk is ever held, whatever the server sends.
 */
function capped(response: Response, maxBytes: number): Response {
  if (!response.body) return response;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    void response.body.cancel().catch(() => {});
    throw new AnswerTooLargeError(maxBytes);
  }
  let seen = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        // An error here errors the reader's side and cancels the source (the connection is dropped).
        if (seen > maxBytes) controller.error(new AnswerTooLargeError(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  const limited = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(limited, 'url', { value: response.url });
  return limited;
}
