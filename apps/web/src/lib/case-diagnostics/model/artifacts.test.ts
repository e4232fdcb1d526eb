import type { CaseArtifact } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { formatBytes, traceLinks, traceSizeText, videoOf } from './artifacts';

const artifact = (kind: CaseArtifact['kind'], attempt: number, bytes = 2048): CaseArtifact => ({
  id: `${kind}-${attempt}`,
  kind,
  attempt,
  bytes,
  url: `/files/${kind}-${attempt}`,
  viewer_url: kind === 'trace' ? `/trace-viewer/?trace=${attempt}` : null,
});

describe('traceLinks', () => {
  it('offers one "Open trace" for a single kept trace', () => {
    expect(traceLinks([artifact('trace', 1), artifact('video', 1)], 'Checkout: order is confirmed')).toEqual([
      {
        label: 'Open trace',
        attempt: 1,
        viewerUrl: '/trace-viewer/?trace=1',
        downloadUrl: '/files/trace-1',
        bytes: 2048,
        fileName: 'checkout-order-is-confirmed-trace.zip',
      },
    ]);
  });

  it('names each attempt’s trace when several were kept, in attempt order', () => {
    const links = traceLinks([artifact('trace', 2), artifact('trace', 1)], 'Checkout');
    expect(links.map((l) => [l.label, l.fileName])).toEqual([
      ['Attempt 1 trace', 'checkout-attempt-1-trace.zip'],
      ['Attempt 2 trace', 'checkout-attempt-2-trace.zip'],
    ]);
    expect(traceSizeText(links)).toBe('2 traces, 4.0 KB');
  });

  it('has nothing to offer without traces', () => {
    expect(traceLinks([artifact('diagnostics', 1)], 'x')).toEqual([]);
    expect(traceSizeText([])).toBeNull();
  });
});

describe('videoOf and sizes', () => {
  it('plays the last attempt’s video', () => {
    expect(videoOf([artifact('video', 1), artifact('video', 2), artifact('trace', 2)])?.id).toBe('video-2');
    expect(videoOf([artifact('trace', 1)])).toBeNull();
  });
  it('reads sizes in B, KB and MB', () => {
    expect([formatBytes(812), formatBytes(14_540), formatBytes(3_250_586)]).toEqual([
      '812 B',
      '14.2 KB',
      '3.1 MB',
    ]);
  });
});
