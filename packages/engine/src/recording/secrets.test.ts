import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { cleanHeaders, secretHider, secretSpellings } from './secrets';
import { redactTrace } from './trace-redaction';

const secrets = [
  { name: 'PASSWORD', value: 'a b&"c' },
  { name: 'CODE', value: '123456' },
];

describe('secretHider', () => {
  it('hides every spelling of a secret: raw, JSON, URL-encoded, form-encoded and HTML-escaped', () => {
    const hide = secretHider(secrets);
    expect(hide('raw a b&"c, json a b&\\"c, uri a%20b%26%22c, form a+b%26%22c, html a b&amp;&quot;c')).toBe(
      'raw {{PASSWORD}}, json {{PASSWORD}}, uri {{PASSWORD}}, form {{PASSWORD}}, html {{PASSWORD}}',
    );
  });

  it('hides a code of digits where it stands alone, not inside a longer number or id', () => {
    const hide = secretHider(secrets);
    expect(hide('code=123456 at 1767123456789 in a123456b')).toBe(
      'code={{CODE}} at 1767123456789 in a123456b',
    );
  });

  it('writes the longest spelling first', () => {
    const forms = secretSpellings(secrets).map((s) => s.form.length);
    expect(forms).toEqual([...forms].sort((a, b) => b - a));
  });
});

describe('cleanHeaders', () => {
  it('redacts credentials and headers naming a token or secret, and hides secrets in the rest', () => {
    expect(
      cleanHeaders(
        {
          Cookie: 'sid=1',
          authorization: 'Bearer x',
          'x-csrf-token': 't',
          'x-note': 'pw a b&"c',
          accept: '*/*',
        },
        secretHider(secrets),
      ),
    ).toEqual({
      Cookie: '[redacted]',
      authorization: '[redacted]',
      'x-csrf-token': '[redacted]',
      'x-note': 'pw {{PASSWORD}}',
      accept: '*/*',
    });
  });
});

describe('redactTrace', () => {
  it('replaces secrets in every file, redacts credential headers and masks fields that held a secret', async () => {
    const network = JSON.stringify({
      type: 'resource-snapshot',
      snapshot: {
        request: { headers: [{ name: 'Cookie', value: 'sid=9' }], cookies: [{ name: 'sid', value: '9' }] },
        response: { headers: [{ name: 'x-trace', value: 'a%20b%26%22c' }], cookies: [] },
      },
    });
    const snapshot = JSON.stringify({
      type: 'frame-snapshot',
      snapshot: {
        html: ['HTML', {}, ['BODY', {}, ['INPUT', { __playwright_value_: 'a b&"c', name: 'user' }]]],
      },
    });
    const zipped = zipSync({
      'trace.trace': strToU8(`${snapshot}\n`),
      'trace.network': strToU8(`${network}\n`),
      'resources/body.dat': strToU8('code=123456&pw=a+b%26%22c'),
    });
    const files = unzipSync(await redactTrace(zipped, secretSpellings(secrets)));
    const text = (path: string) => Buffer.from(files[path]).toString('utf8');
    expect(text('resources/body.dat')).toBe('code={{CODE}}&pw={{PASSWORD}}');
    const entry = JSON.parse(text('trace.network').trim());
    expect(entry.snapshot.request.headers[0].value).toBe('[redacted]');
    expect(entry.snapshot.request.cookies[0].value).toBe('[redacted]');
    expect(entry.snapshot.response.headers[0].value).toBe('{{PASSWORD}}');
    const input = JSON.parse(text('trace.trace').trim()).snapshot.html[2][2];
    expect(input[1]).toEqual({
      __playwright_value_: '{{PASSWORD}}',
      name: 'user',
      style: '-webkit-text-security: disc !important',
    });
  });

  it('keeps a trace with nothing to take out as it is, byte for byte', async () => {
    const network = JSON.stringify({
      type: 'resource-snapshot',
      snapshot: { request: { headers: [{ name: 'Accept', value: '*/*' }], cookies: [] }, response: {} },
    });
    const zipped = Buffer.from(
      zipSync({ 'trace.trace': strToU8('{"type":"before"}\n'), 'trace.network': strToU8(`${network}\n`) }),
    );
    expect((await redactTrace(zipped, secretSpellings(secrets))).equals(zipped)).toBe(true);
  });
});
