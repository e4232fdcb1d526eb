import type { LookupAddress } from 'node:dns';
import type { TargetPolicy } from '@argus/engine';
import { Agent, fetch as undiciFetch } from 'undici';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A refused connection, said as the policy says it (no body of whatever would have answered). */
export class PolicyRefusedError extends Error {
  constructor(reason: string) {
    super(`The server may not call this address: ${reason}.`);
    this.name = 'PolicyRefusedError';
  }
}

/**
 * A fetch for calls to addresses a user chose (a model's base URL): each request's URL is judged by
 * the browser's target policy, redirects are refused, and every connection is judged again as it is
 * opened and made to exactly the address that was judged (a DNS answer that changes in between, to
 * cloud metadata say, cannot slip through).
 */
export function policyFetch(policy: Pick<TargetPolicy, 'check'>): typeof globalThis.fetch {
  const agent = new Agent({
    connect: {
      lookup: (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
        const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
        policy
          .check(`http://${host}/`)
          .then((decision) => {
            if (!decision.allowed)
              return callback(
                Object.assign(new PolicyRefusedError(decision.reason), { code: 'EPOLICY' }),
                '',
              );
            const address = decision.addresses[0];
            const family = address.includes(':') ? 6 : 4;
            if (options.all) callback(null, [{ address, family }]);
            else callback(null, address, family);
          })
          .catch((error: Error) => callback(error, ''));
      },
    },
  });
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    // The whole URL first (its port too: the Argus server itself is refused by address and port).
    const decision = await policy.check(url);
    if (!decision.allowed) throw new PolicyRefusedError(decision.reason);
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      // A model API does not redirect; one that does could point anywhere.
      redirect: 'error',
      dispatcher: agent,
    });
  }) as unknown as typeof globalThis.fetch;
}
