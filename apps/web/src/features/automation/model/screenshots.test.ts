import type { StepUpdate } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  addScreenshot,
  runsWithStaleLinks,
  screenshotDataUrl,
  screenshotFileName,
  screenshotFromStep,
  signedLink,
  slug,
  withFreshLinks,
} from './screenshots';

const base: StepUpdate = {
  step_number: 2,
  step_index: 1,
  action: 'navigate',
  description: 'Navigate to "/about.html"',
  status: 'success',
  timestamp: '2026-01-01T10:00:00.000Z',
};

describe('screenshots from step updates', () => {
  it('builds a JPEG data URL from base64_data, data or image_data', () => {
    expect(screenshotDataUrl({ base64_data: 'AAA' })).toBe('data:image/jpeg;base64,AAA');
    expect(screenshotDataUrl({ data: 'BBB' })).toBe('data:image/jpeg;base64,BBB');
    expect(screenshotDataUrl({ image_data: 'data:image/png;base64,CCC' })).toBe('data:image/png;base64,CCC');
    expect(screenshotDataUrl(null)).toBeNull();
    expect(screenshotDataUrl({ width: 10 })).toBeNull();
  });

  it('takes the step, test and size; pending updates carry none', () => {
    const shot = screenshotFromStep('About page', {
      ...base,
      screenshot: { base64_data: 'QUJD', width: 1280, height: 800 },
    });
    expect(shot).toMatchObject({
      testName: 'About page',
      stepIndex: 1,
      stepNumber: 2,
      stepName: 'Navigate to "/about.html"',
      width: 1280,
      height: 800,
      src: 'data:image/jpeg;base64,QUJD',
      fileName: 'about-page-step-2.jpg',
    });
    expect(screenshotFromStep('About page', { ...base, status: 'pending' })).toBeNull();
  });

  it('replaces a step screenshot that arrives again', () => {
    const a = screenshotFromStep('T', { ...base, screenshot: { base64_data: 'A' } })!;
    const b = screenshotFromStep('T', { ...base, screenshot: { base64_data: 'B' } })!;
    const c = screenshotFromStep('T', { ...base, step_index: 2, screenshot: { base64_data: 'C' } })!;
    expect(addScreenshot(addScreenshot(addScreenshot([], a), c), b).map((s) => s.src.slice(-1))).toEqual([
      'B',
      'C',
    ]);
  });

  it('makes safe file names', () => {
    expect(slug('Checkout: "Pay now" / Visa')).toBe('checkout-pay-now-visa');
    expect(slug('***')).toBe('test');
    expect(screenshotFileName('Login form', 12)).toBe('login-form-step-12.jpg');
  });
});

describe('stored images behind expiring signed links', () => {
  const at = Date.UTC(2030, 0, 1, 12, 0, 0);
  const link = (id: string, expires: number, sig = 's1') =>
    `/api/screenshots/${id}/image?owner=u1&expires=${expires}&sig=${sig}`;
  const stored = (id: string, src: string, runId = 'run1') =>
    screenshotFromStep(
      'T',
      { ...base, step_index: id.length, screenshot: { width: 10, height: 10 } },
      src,
      runId,
    )!;

  it('reads a link: its screenshot and its expiry; not a data: URL', () => {
    expect(signedLink(link('abc-1', 1_900_000_000))).toEqual({ id: 'abc-1', expiresAt: 1_900_000_000_000 });
    expect(signedLink('/api/screenshots/abc-1/image')).toEqual({ id: 'abc-1', expiresAt: null });
    expect(signedLink('data:image/jpeg;base64,AAAA')).toBeNull();
    expect(signedLink('/api/screenshots/abc-1/other')).toBeNull();
  });

  it('a replayed step keeps which stored screenshot and run its link is for; an inline image has none', () => {
    expect(stored('a', link('a', 1))).toMatchObject({
      src: link('a', 1),
      stored: { id: 'a', runId: 'run1' },
    });
    const inline = screenshotFromStep(
      'T',
      { ...base, screenshot: { base64_data: 'QUJD' } },
      link('a', 1),
      'run1',
    );
    expect(inline?.stored).toBeUndefined();
    // No login token is added to a stored image's link.
    expect(stored('a', link('a', 1)).src).not.toMatch(/token/);
  });

  it('finds the runs whose links expired or expire within the margin', () => {
    const items = [
      stored('a', link('a', at / 1000 + 600)),
      stored('bb', link('bb', at / 1000 + 20), 'run2'),
      stored('ccc', link('ccc', at / 1000 - 5), 'run3'),
      stored('dddd', '/api/screenshots/dddd/image', 'run4'),
    ];
    expect(runsWithStaleLinks(items, at)).toEqual(['run2', 'run3', 'run4']);
    expect(runsWithStaleLinks(items, at, 0)).toEqual(['run3', 'run4']);
  });

  it('swaps in fresh links by screenshot id, and changes nothing when none apply', () => {
    const items = [stored('a', link('a', 1)), stored('bb', link('bb', 1))];
    const fresh = withFreshLinks(items, [
      { id: 'bb', url: link('bb', 2, 's2') },
      { id: 'zz', url: link('zz', 2, 's2') },
      // A link for another screenshot is never put in this one's place.
      { id: 'a', url: link('zz', 2, 's2') },
    ]);
    expect(fresh.map((i) => i.src)).toEqual([link('a', 1), link('bb', 2, 's2')]);
    expect(withFreshLinks(items, [{ id: 'a', url: link('a', 1) }])).toBe(items);
  });
});
