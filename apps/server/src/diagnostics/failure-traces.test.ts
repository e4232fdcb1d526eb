import type { CaseArtifactRow } from '@argus/db';
import { describe, expect, it } from 'vitest';
import { createSignedUrls } from '../storage/signed-urls';
import { caseTraces } from './failure-traces';

const urls = createSignedUrls({ secret: new Uint8Array(32).fill(7), ttlSeconds: 600 });
const artifact = (over: Partial<CaseArtifactRow>): CaseArtifactRow => ({
  id: 'a',
  user_id: 'org-1',
  test_run_id: 'run-1',
  test_case_name: 'Pay',
  attempt: 1,
  kind: 'trace',
  sha256: 'f'.repeat(64),
  mime: 'application/zip',
  bytes: 100,
  created_at: new Date(),
  ...over,
});

describe("a run report's traces", () => {
  it("links each case's last kept trace, signed for the owner, under the given origin", () => {
    const traces = caseTraces(
      urls,
      [
        artifact({ attempt: 1, bytes: 100 }),
        artifact({ attempt: 2, bytes: 200 }),
        artifact({ attempt: 3, kind: 'video', bytes: 300 }),
        artifact({ test_case_name: 'Browse', kind: 'diagnostics' }),
      ],
      [
        { id: 'res-pay', test_case_name: 'Pay' },
        { id: 'res-browse', test_case_name: 'Browse' },
      ],
      'https://argus.example',
    );
    expect([...traces.keys()]).toEqual(['res-pay']);
    const pay = traces.get('res-pay');
    expect(pay?.bytes).toBe(200);
    const link = new URL(pay?.url ?? '');
    expect(link.origin).toBe('https://argus.example');
    expect(link.pathname).toBe('/api/runs/run-1/cases/res-pay/trace.zip');
    expect(link.searchParams.get('attempt')).toBe('2');
    const query = Object.fromEntries(link.searchParams);
    const target = { runId: 'run-1', caseId: 'res-pay', attempt: 2 };
    expect(urls.verifyCaseFile('trace', target, query).ownerId).toBe('org-1');
  });
});
