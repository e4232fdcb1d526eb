import type { StepUpdate } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  addScreenshot,
  screenshotDataUrl,
  screenshotFileName,
  screenshotFromStep,
  slug,
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
