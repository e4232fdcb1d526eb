import { describe, expect, it } from 'vitest';
import { FigmaUrlError, parseFigmaUrl, toApiNodeId, toUrlNodeId } from './figma-url';

describe('parseFigmaUrl', () => {
  it('reads /file/ links with a dashed node id', () => {
    expect(parseFigmaUrl('https://www.figma.com/file/AbCdEf1234567890/Landing?node-id=1-2')).toEqual({
      fileKey: 'AbCdEf1234567890',
      nodeId: '1:2',
    });
  });

  it('reads /design/ links with an encoded colon, and /proto/ links', () => {
    expect(
      parseFigmaUrl('https://www.figma.com/design/AbCdEf1234567890/Landing-Page?node-id=12%3A345&t=x'),
    ).toEqual({ fileKey: 'AbCdEf1234567890', nodeId: '12:345' });
    expect(parseFigmaUrl('https://figma.com/proto/AbCdEf1234567890/Landing')).toEqual({
      fileKey: 'AbCdEf1234567890',
    });
  });

  it('has no node when the link names none', () => {
    expect(parseFigmaUrl('  https://www.figma.com/design/AbCdEf1234567890  ')).toEqual({
      fileKey: 'AbCdEf1234567890',
    });
  });

  it('reads a branch link as the branch key', () => {
    expect(
      parseFigmaUrl('https://www.figma.com/design/AbCdEf1234567890/branch/BrAnCh123456789/Landing').fileKey,
    ).toBe('BrAnCh123456789');
  });

  it.each([
    'https://example.com/file/AbCdEf1234567890/Landing',
    'https://www.figma.com.evil.test/file/AbCdEf1234567890/x',
    'https://www.figma.com/community/file/1035203688168086460',
    'https://www.figma.com/files/recent',
    'https://www.figma.com/',
    'ftp://www.figma.com/file/AbCdEf1234567890/x',
    'not a url',
    '',
  ])('refuses %j with a clear error', (link) => {
    expect(() => parseFigmaUrl(link)).toThrow(FigmaUrlError);
    expect(() => parseFigmaUrl(link)).toThrow(/not a Figma file link/);
  });

  it('refuses a node-id that is not one', () => {
    expect(() => parseFigmaUrl('https://www.figma.com/file/AbCdEf1234567890/x?node-id=frame')).toThrow(
      /node-id "frame" is not a node id/,
    );
  });

  it('converts node ids between link and API forms', () => {
    expect(toApiNodeId('1-2')).toBe('1:2');
    expect(toApiNodeId('I1-2;3-4')).toBe('I1:2;3:4');
    expect(toUrlNodeId('1:2')).toBe('1-2');
  });
});
