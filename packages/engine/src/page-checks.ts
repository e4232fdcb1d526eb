import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { readFieldError, readOverflow, readVisibleErrors } from './page-functions';

// In-page checks behind the Verify steps (those the Playwright export shares are in page-functions.ts). Each returns the problems it found as sentences a QA
// engineer can act on; an empty list means the check passed.

export async function brokenLinks(page: Page, limit = 50): Promise<string[]> {
  return page.evaluate(async (max) => {
    const seen = new Map<string, string>();
    for (const a of Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]'))) {
      const url = new URL(a.href, location.href);
      if (url.origin !== location.origin || seen.has(url.href.split('#')[0])) continue;
      seen.set(url.href.split('#')[0], (a.textContent ?? '').trim().replace(/\s+/g, ' ') || a.href);
      if (seen.size >= max) break;
    }
    const problems: string[] = [];
    await Promise.all(
      [...seen].map(async ([href, text]) => {
        try {
          let res = await fetch(href, { method: 'HEAD', redirect: 'follow', cache: 'no-store' });
          if (res.status === 405 || res.status === 501)
            res = await fetch(href, { redirect: 'follow', cache: 'no-store' });
          if (res.status >= 400) problems.push(`Broken link "${text}" → ${href} answered ${res.status}`);
        } catch (error) {
          problems.push(`Broken link "${text}" → ${href} could not be fetched (${(error as Error).message})`);
        }
      }),
    );
    return problems.sort();
  }, limit);
}

export async function imagesWithoutAlt(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.images)
      .filter((img) => !img.hasAttribute('alt') && img.getAttribute('role') !== 'presentation')
      .map((img) => `Image without alt text: ${img.getAttribute('src') ?? img.currentSrc}`),
  );
}

export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(readOverflow);
}

/** Whether a field shows a validation error: aria-invalid, a visible error message tied to it, or the browser's own. */
export async function fieldShowsError(field: Locator): Promise<boolean> {
  return field.evaluate(readFieldError);
}

export async function visibleErrors(page: Page): Promise<string[]> {
  return page.evaluate(readVisibleErrors);
}

let axeSource: string | undefined;
function axe(): string {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/** axe-core violations of serious or critical impact. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe());
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{
            violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `axe-core ${v.id} (${v.impact}): ${v.help} — ${v.targets.length} element${v.targets.length === 1 ? '' : 's'}: ${v.targets.slice(0, 3).join(', ')}`,
    );
}
