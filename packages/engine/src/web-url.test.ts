import { URL_SCHEME_REFUSED } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { isWebPage, resolveWebUrl, SchemeRefusedError } from './web-url';

describe('resolveWebUrl', () => {
  it('resolves relative targets against the current page and keeps http(s)', () => {
    expect(resolveWebUrl('/about', 'http://127.0.0.1:3000/shop/')).toBe('http://127.0.0.1:3000/about');
    expect(resolveWebUrl('next', 'https://example.com/a/b')).toBe('https://example.com/a/next');
    expect(resolveWebUrl('HTTPS://Example.com')).toBe('https://example.com/');
    expect(resolveWebUrl('//example.org/x', 'https://example.com/')).toBe('https://example.org/x');
    expect(resolveWebUrl('../up?q=1#f', 'http://example.com/a/b/c')).toBe('http://example.com/a/up?q=1#f');
    expect(resolveWebUrl('?q=2', 'http://example.com/p')).toBe('http://example.com/p?q=2');
    expect(resolveWebUrl('  http://example.com/x  ')).toBe('http://example.com/x');
  });

  it('refuses what a relative target turns into, whatever the base', () => {
    for (const target of ['file:etc/hostname', 'file:/etc/hostname', 'FILE:etc/hostname', 'view-source:/'])
      expect(() => resolveWebUrl(target, 'http://example.com/a/')).toThrow(URL_SCHEME_REFUSED);
    // A base that is not a web page resolves nothing relative into a web page.
    expect(() => resolveWebUrl('/etc/hostname', 'file:///home/')).toThrow(URL_SCHEME_REFUSED);
  });

  it.each([
    'file:///etc/hostname',
    'file:///',
    'FILE:///etc/passwd',
    ' \t\nfile:///etc/passwd',
    '\u0000file:///etc/passwd',
    'fi\tle:///etc/passwd',
    '\u0001\u001fFILE:///etc/passwd',
    '\u0000 javascript:alert(1)',
    'java\nscript:alert(1)',
    ' vIeW-SoUrCe:http://127.0.0.1/',
    'chrome://version',
    'chrome-extension://abc/page.html',
    'view-source:http://127.0.0.1/',
    'devtools://devtools/bundled/inspector.html',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<h1>x</h1>',
    'blob:http://example.com/uuid',
    'about:config',
    'ftp://example.com/',
    'ws://example.com/',
  ])('refuses %j with the policy message', (target) => {
    expect(() => resolveWebUrl(target, 'http://example.com/')).toThrow(SchemeRefusedError);
    expect(() => resolveWebUrl(target, 'http://example.com/')).toThrow(URL_SCHEME_REFUSED);
  });

  it('reads backslash forms as the browser does: http:/\\host stays http', () => {
    expect(resolveWebUrl('http:/\\evil.example/x')).toBe('http://evil.example/x');
    expect(resolveWebUrl('/\\evil.example/x', 'http://example.com/')).toBe('http://evil.example/x');
    expect(resolveWebUrl('\\\\evil.example/x', 'https://example.com/')).toBe('https://evil.example/x');
    expect(resolveWebUrl('http:\\\\evil.example\\x')).toBe('http://evil.example/x');
    expect(resolveWebUrl('HTTPS:evil.example')).toBe('https://evil.example/');
  });

  it('says plainly when the text is no URL at all', () => {
    expect(() => resolveWebUrl('not a url')).toThrow('Not a valid URL: not a url');
  });
});

describe('isWebPage', () => {
  it("lets http(s) pages, the blank page and Chromium's network-error page stay, nothing else", () => {
    expect(isWebPage('http://example.com/')).toBe(true);
    expect(isWebPage('https://example.com/')).toBe(true);
    expect(isWebPage('about:blank')).toBe(true);
    expect(isWebPage('about:blank#top')).toBe(true);
    expect(isWebPage('about:blank?x=1')).toBe(true);
    expect(isWebPage('chrome-error://chromewebdata/')).toBe(true);
    for (const url of [
      'file:///etc/',
      'file:///etc/hostname',
      'FILE:///etc/hostname',
      'chrome://version/',
      'chrome-extension://abc/page.html',
      'devtools://devtools/bundled/inspector.html',
      'view-source:http://x/',
      'data:text/html,x',
      'blob:http://example.com/0f2c',
      'javascript:alert(1)',
      'about:srcdoc',
      'about:config',
      'about:blankx',
      'chrome-error://other/',
      '',
    ])
      expect(isWebPage(url)).toBe(false);
  });
});
