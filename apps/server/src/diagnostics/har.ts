import type { CaseDiagnostics, NetworkEntry } from '@argus/protocol';

/**
 * A case's requests as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/), for
 * the browser's developer tools and HAR viewers. Built from the stored network entries: no bodies (they
 * are not kept), headers as stored (credentials already `[redacted]`, secrets `{{NAME}}`). Fields HAR
 * requires that Argus does not know read -1 or '' as the format says for unknown values.
 */

interface HarHeader {
  name: string;
  value: string;
}

const headersOf = (headers: Record<string, string>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

/** A URL's query as HAR lists it; none when the URL cannot be read (a `{{NAME}}` in its host). */
function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const headerValue = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

function harEntry(entry: NetworkEntry, startedAt: number) {
  const time = entry.duration_ms ?? 0;
  return {
    startedDateTime: new Date(startedAt + entry.at_ms).toISOString(),
    time,
    request: {
      method: entry.method,
      url: entry.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(entry.request_headers),
      queryString: queryOf(entry.url),
      headersSize: -1,
      bodySize: entry.request_bytes,
    },
    response: {
      // HAR's way of saying no answer came: status 0 (the reason in `_failureText`, as browsers write it).
      status: entry.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headersOf(entry.response_headers),
      content: {
        size: entry.response_bytes ?? 0,
        mimeType: headerValue(entry.response_headers, 'content-type') ?? '',
        comment: 'Bodies are not kept by Argus',
      },
      redirectURL: headerValue(entry.response_headers, 'location') ?? '',
      headersSize: -1,
      bodySize: entry.response_bytes ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _resourceType: entry.resource_type,
    ...(entry.step_index !== null && { _argusStep: entry.step_index }),
    ...(entry.failure && { _failureText: entry.failure }),
  };
}

/**
 * The HAR of one case: one page (the case) and its requests in the order they were made. `startedAt`
 * is when the case got its browser (entries' `at_ms` count from there).
 */
export function caseHar(
  diagnostics: Pick<CaseDiagnostics, 'network'>,
  page: { title: string; startedAt: Date },
  creatorVersion: string,
) {
  const started = page.startedAt.getTime();
  return {
    log: {
      version: '1.2',
      creator: { name: 'Argus', version: creatorVersion },
      pages: [
        {
          startedDateTime: page.startedAt.toISOString(),
          id: 'case',
          title: page.title,
          pageTimings: {},
        },
      ],
      entries: diagnostics.network.map((entry) => ({ pageref: 'case', ...harEntry(entry, started) })),
    },
  };
}
