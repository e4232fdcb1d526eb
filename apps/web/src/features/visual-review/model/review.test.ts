import { type VisualRunCheck, VisualRunCheckSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  approveAllIds,
  baselineText,
  boxPercent,
  checkTitle,
  countChecks,
  decisionText,
  historyBaselineId,
  issueKindText,
  overlayClip,
  overlayValueText,
  reviewLabel,
  reviewOrder,
  splitChecks,
  statusLabel,
  summaryText,
  viewportText,
  viewsOf,
  whenText,
} from './review';

const BASELINE = {
  id: 'b1',
  project_id: 'p1',
  environment_id: 'e1',
  branch: '',
  case_name: 'Checkout',
  check_name: 'page',
  viewport: { width: 1440, height: 900 },
  browser: 'chromium',
  width: 1440,
  height: 900,
  moving_masks: [],
  user_masks: [],
  threshold: 0.1,
  approved_by: 'mia',
  source_run_id: '3f2a91c0-aaaa-bbbb',
  copied_from: null,
  created_at: '2026-11-29T12:00:00Z',
};

function check(id: string, overrides: Partial<VisualRunCheck> = {}): VisualRunCheck {
  return VisualRunCheckSchema.parse({
    id,
    run_id: 'run1',
    project_id: 'p1',
    environment_id: 'e1',
    branch: '',
    case_name: `Case ${id}`,
    case_index: 0,
    check_name: 'page',
    region: null,
    step_index: 2,
    viewport: { width: 1440, height: 900 },
    browser: 'chromium',
    status: 'changed',
    issues: [],
    message: 'Changed: 2 issues',
    review: 'pending',
    width: 1440,
    height: 900,
    moving_masks: [],
    url: 'http://localhost/checkout',
    baseline: BASELINE,
    images: { current: '/c.png', baseline: '/b.png', diff: '/d.png' },
    decided_by: null,
    decided_at: null,
    decision_reason: null,
    made_baseline_id: null,
    created_at: '2026-11-30T07:00:00Z',
    ...overrides,
  });
}

const changed = check('a');
const fresh = check('b', {
  status: 'new',
  baseline: null,
  images: { current: '/c.png', baseline: null, diff: null },
});
const same = check('c', {
  status: 'same',
  review: 'none',
  images: { current: '/c.png', baseline: '/b.png', diff: null },
});
const approved = check('d', { review: 'approved', decided_by: 'mia', decided_at: '2026-11-30T07:10:00Z' });
const rejected = check('e', { review: 'rejected', decided_by: 'tom', decided_at: '2026-11-30T07:12:00Z' });

describe('the visual review', () => {
  it('lists pending first (changed before new), then decided, then those as approved, stable within each', () => {
    const second = check('f');
    const freshToo = check('g', { status: 'new', baseline: null });
    expect(
      reviewOrder([same, rejected, fresh, approved, changed, freshToo, second]).map((c) => c.id),
    ).toEqual(['a', 'f', 'b', 'g', 'e', 'd', 'c']);
  });

  it('gives a card to each check to review or decided, and folds away those that looked as approved', () => {
    const { cards, asApproved } = splitChecks([same, approved, fresh, changed]);
    expect(cards.map((c) => c.id)).toEqual(['a', 'b', 'd']);
    expect(asApproved.map((c) => c.id)).toEqual(['c']);
  });

  it('counts the checks and says what waits', () => {
    const counts = countChecks([changed, fresh, same, approved, rejected, check('h')]);
    expect(counts).toEqual({ pending: 3, changed: 2, new: 1, same: 1, approved: 1, rejected: 1 });
    expect(summaryText(counts)).toBe('3 to review: 2 changed, 1 new');
    expect(summaryText(countChecks([fresh]))).toBe('1 to review: 1 new');
    expect(summaryText(countChecks([same]))).toBe('Nothing waits for review');
    expect(summaryText(countChecks([same, approved, rejected]))).toBe('Nothing waits for review · 2 decided');
    expect(approveAllIds([changed, fresh, same, approved, rejected])).toEqual(['a', 'b']);
  });

  it('names the section by the checks waiting', () => {
    expect(reviewLabel(0)).toBe('Review');
    expect(reviewLabel(undefined)).toBe('Review');
    expect(reviewLabel(3)).toBe('Review (3)');
  });

  it('says each status, check and viewport in words', () => {
    expect(statusLabel(changed)).toBe('Changed');
    expect(statusLabel(fresh)).toBe('New visual check');
    expect(statusLabel(same)).toBe('Looks as approved');
    expect(checkTitle(changed)).toBe('Whole page');
    expect(checkTitle(check('p2', { check_name: 'page #2' }))).toBe('Whole page #2');
    expect(checkTitle(check('r', { check_name: 'Header', region: 'Header' }))).toBe('Header');
    expect(viewportText({ width: 390, height: 844 })).toBe('390 × 844');
    expect(issueKindText('colour')).toBe('Colour');
    expect(issueKindText('missing_element')).toBe('Missing element');
    expect(issueKindText('')).toBe('Difference');
  });

  it("opens the history of the baseline a check's approval made, else of the one it was compared with", () => {
    expect(historyBaselineId({ made_baseline_id: 'b2', baseline: null })).toBe('b2');
    expect(historyBaselineId({ made_baseline_id: null, baseline: changed.baseline })).toBe(
      changed.baseline?.id,
    );
    expect(historyBaselineId({ made_baseline_id: null, baseline: null })).toBeNull();
  });

  it('says who decided and when', () => {
    const when = (iso: string) => `at ${iso}`;
    expect(decisionText(approved, when)).toBe('Approved by mia · at 2026-11-30T07:10:00Z: now the baseline');
    expect(decisionText(rejected, when)).toBe(
      'Rejected by tom · at 2026-11-30T07:12:00Z: a bug, the baseline stays',
    );
    expect(decisionText(check('x', { review: 'approved' }), when)).toBe('Approved: now the baseline');
    expect(decisionText({ ...rejected, decision_reason: 'The logo is cut off' }, when)).toBe(
      'Rejected by tom · at 2026-11-30T07:12:00Z: a bug, the baseline stays (“The logo is cut off”)',
    );
    expect(decisionText(changed, when)).toBeNull();
    expect(decisionText(same, when)).toBeNull();
    expect(whenText('2026-11-30T07:10:00Z', 'en-GB', 'UTC')).toBe('30 Nov 2026, 07:10');
    expect(whenText('not a date')).toBe('not a date');
  });

  it('says where a baseline came from', () => {
    const when = (iso: string) => iso.slice(0, 10);
    expect(baselineText(BASELINE, when)).toBe('Approved by mia · 2026-11-29 · from run 3f2a91c0');
    expect(baselineText({ ...BASELINE, source_run_id: null, copied_from: 'b0' }, when)).toBe(
      'Approved by mia · 2026-11-29 · restored from an earlier baseline',
    );
  });

  it('offers the views a check has: a new one its capture alone, the difference only when drawn', () => {
    expect(viewsOf(changed)).toEqual(['side', 'overlay', 'diff']);
    expect(viewsOf(same)).toEqual(['side', 'overlay']);
    expect(viewsOf(fresh)).toEqual([]);
  });

  it('places a box of the capture on the image as shown, in percentages, clipped to the capture', () => {
    expect(boxPercent({ x: 144, y: 90, width: 288, height: 450 }, 1440, 900)).toEqual({
      left: '10%',
      top: '10%',
      width: '20%',
      height: '50%',
    });
    expect(boxPercent({ x: -10, y: 800, width: 20, height: 200 }, 1000, 1000)).toEqual({
      left: '0%',
      top: '80%',
      width: '1%',
      height: '20%',
    });
    expect(boxPercent({ x: 1, y: 1, width: 1, height: 3 }, 3, 3)).toEqual({
      left: '33.33%',
      top: '33.33%',
      width: '33.33%',
      height: '66.67%',
    });
    expect(boxPercent({ x: 2000, y: 0, width: 10, height: 10 }, 1440, 900)).toBeNull();
    expect(boxPercent({ x: 0, y: 0, width: 0, height: 10 }, 1440, 900)).toBeNull();
    expect(boxPercent({ x: 0, y: 0, width: 10, height: 10 }, 0, 900)).toBeNull();
  });

  it('reveals the current capture from the left as the slider moves, and says so', () => {
    expect(overlayClip(50)).toBe('inset(0 50% 0 0)');
    expect(overlayClip(100)).toBe('inset(0 0% 0 0)');
    expect(overlayClip(-5)).toBe('inset(0 100% 0 0)');
    expect(overlayValueText(0)).toBe('Baseline only');
    expect(overlayValueText(100)).toBe('Now only');
    expect(overlayValueText(30)).toBe('30% now, 70% baseline');
  });
});
