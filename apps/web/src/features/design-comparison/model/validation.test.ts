import { MAX_UPLOAD_BYTES } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkDesignFile,
  designDetails,
  figmaUrlError,
  firstFile,
  isValidFigmaUrl,
  isValidWebsiteUrl,
  type StartInput,
  startBlocker,
  websiteUrlError,
} from './validation';

describe('website URL (docs/PRODUCT.md#comparison-inputs)', () => {
  it('accepts http:// and https:// addresses', () => {
    expect(isValidWebsiteUrl('https://example.com')).toBe(true);
    expect(isValidWebsiteUrl('  http://127.0.0.1:8080/shop?x=1 ')).toBe(true);
  });
  it('refuses anything else, with the inline text once something is typed', () => {
    for (const bad of ['example.com', 'ftp://example.com', 'https://', 'javascript:alert(1)', 'http//x']) {
      expect(isValidWebsiteUrl(bad)).toBe(false);
      expect(websiteUrlError(bad)).toBe('Please enter a valid website URL');
    }
    expect(websiteUrlError('')).toBeNull();
    expect(websiteUrlError('https://example.com')).toBeNull();
  });
});

describe('Figma URL (docs/PRODUCT.md#comparison-inputs)', () => {
  it("accepts a file link on Figma's https site", () => {
    expect(isValidFigmaUrl('https://www.figma.com/design/AbCdEf1234/Landing?node-id=1-2')).toBe(true);
    expect(isValidFigmaUrl('https://figma.com/file/AbCdEf1234/Landing')).toBe(true);
  });
  it('refuses other sites, http and the bare site', () => {
    for (const bad of [
      'http://www.figma.com/file/AbCdEf1234/x',
      'https://www.figma.com/',
      'https://www.figma.com.evil.test/file/AbCdEf1234',
      'https://example.com/file/AbCdEf1234',
      'figma.com/file/AbCdEf1234',
    ]) {
      expect(isValidFigmaUrl(bad)).toBe(false);
      expect(figmaUrlError(bad)).toBe('Please enter a valid Figma file URL');
    }
    expect(figmaUrlError(' ')).toBeNull();
  });
});

describe('the design file (docs/PRODUCT.md#comparison-inputs)', () => {
  it('must be an image', () => {
    expect(checkDesignFile({ type: 'application/pdf', size: 10 })).toBe('Please select an image file');
    expect(checkDesignFile({ type: '', size: 10 })).toBe('Please select an image file');
  });
  it('must not be over 10 MB', () => {
    expect(checkDesignFile({ type: 'image/png', size: MAX_UPLOAD_BYTES + 1 })).toBe(
      'File size must be less than 10MB',
    );
    expect(checkDesignFile({ type: 'image/png', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(checkDesignFile({ type: 'image/webp', size: 1 })).toBeNull();
  });
  it('is described by its pixels and size', () => {
    expect(designDetails({ width: 1920, height: 1080, size: 250_880 })).toBe('1920×1080 px · 245 KB');
    expect(designDetails({ size: 512 })).toBe('512 B');
    expect(designDetails({ width: 10, height: 10, size: 3 * 1024 * 1024 })).toBe('10×10 px · 3.0 MB');
    expect(designDetails({})).toBeNull();
  });
  it('only the first dropped file is used', () => {
    expect(firstFile(['a', 'b'])).toBe('a');
    expect(firstFile([])).toBeNull();
    expect(firstFile(null)).toBeNull();
  });
});

describe('Start Comparison (docs/PRODUCT.md#comparison-inputs)', () => {
  const ready: StartInput = {
    method: 'image',
    websiteUrl: 'https://example.com',
    figmaUrl: '',
    fileId: 'f1',
    isConnected: true,
    running: false,
    uploading: false,
  };
  it('is enabled when connected, the website is valid and the design is given', () => {
    expect(startBlocker(ready)).toBeNull();
    expect(
      startBlocker({
        ...ready,
        method: 'figma',
        fileId: null,
        figmaUrl: 'https://www.figma.com/design/AbCdEf1234/x',
      }),
    ).toBeNull();
  });
  it('is disabled otherwise, saying why', () => {
    expect(startBlocker({ ...ready, websiteUrl: 'nope' })).toBe('Please enter a valid website URL');
    expect(startBlocker({ ...ready, fileId: null })).toBe('Please upload a design image');
    expect(startBlocker({ ...ready, method: 'figma', figmaUrl: 'https://example.com/x/y' })).toBe(
      'Please enter a valid Figma file URL',
    );
    expect(startBlocker({ ...ready, isConnected: false })).not.toBeNull();
    expect(startBlocker({ ...ready, running: true })).not.toBeNull();
    expect(startBlocker({ ...ready, uploading: true })).not.toBeNull();
  });
});
