import { describe, expect, it } from 'vitest';
import { normalizeStartUrl } from './start-url';

describe('normalizeStartUrl', () => {
  it("leaves the start page to the server's default (a search engine's home page) when empty", () => {
    expect(normalizeStartUrl('   ')).toBe('');
  });

  it('keeps http(s) URLs and adds https:// when no scheme was typed', () => {
    expect(normalizeStartUrl('http://127.0.0.1:4400/index.html')).toBe('http://127.0.0.1:4400/index.html');
    expect(normalizeStartUrl('example.com/shop')).toBe('https://example.com/shop');
    expect(normalizeStartUrl('localhost:3000')).toBe('https://localhost:3000/');
  });

  it('refuses other schemes and nonsense', () => {
    expect(normalizeStartUrl('file:///etc/passwd')).toBeNull();
    expect(normalizeStartUrl('javascript:alert(1)')).toBeNull();
    expect(normalizeStartUrl('http://')).toBeNull();
  });
});
