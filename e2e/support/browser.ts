import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CHROMIUM_ARGS, findChromium } from '@argus/engine';
import { type Browser, chromium, type Page } from 'playwright-core';
import { REPO_ROOT } from '../../apps/server/src/testing/spawn-server';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
}

/** Where e2e screenshots go (git-ignored); look at them before calling a screen done. */
export const ARTIFACTS_DIR = join(REPO_ROOT, 'e2e', 'artifacts');

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
