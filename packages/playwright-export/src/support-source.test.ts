import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('the support file every export carries', () => {
  it('is generated from packages/engine/src/page-functions.ts and src/template/argus.ts, not edited by hand', () => {
    // The script regenerates both files in memory and compares them byte for byte with what is committed.
    const script = fileURLToPath(new URL('../embed-support.mjs', import.meta.url));
    const check = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(check.stderr, 'run: node packages/playwright-export/embed-support.mjs').toBe('');
    expect(check.status).toBe(0);
  });
});
