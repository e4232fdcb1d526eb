import { describe, expect, it } from 'vitest';
import {
  approvedText,
  branchText,
  checkTitle,
  chosenEnvironment,
  environmentOptions,
  masksText,
  parseBranch,
  promotedText,
  promoteText,
  sortBaselines,
  thresholdText,
  viewportText,
  visualBaselinesPath,
  whenText,
} from './baselines';

const ENVS = [
  { id: 'e1', name: 'staging', is_default: false },
  { id: 'e2', name: 'production', is_default: true },
  { id: 'e3', name: 'preview', is_default: false },
];
const BOX = { x: 0, y: 0, width: 1, height: 1 };

describe('environments', () => {
  it('lists the default environment first', () => {
    expect(environmentOptions(ENVS)).toEqual([
      { value: 'e2', label: 'production (default)' },
      { value: 'e1', label: 'staging' },
      { value: 'e3', label: 'preview' },
    ]);
  });

  it('shows the one asked for, else the default one', () => {
    expect(chosenEnvironment(ENVS, 'e3')).toBe('e3');
    expect(chosenEnvironment(ENVS, 'gone')).toBe('e2');
    expect(chosenEnvironment(ENVS, null)).toBe('e2');
    expect(chosenEnvironment([{ id: 'x', is_default: false }], null)).toBe('x');
    expect(chosenEnvironment([], null)).toBe('');
  });
});

describe('branch', () => {
  it('reads the field: empty is the default branch', () => {
    expect(parseBranch('')).toEqual({ branch: '' });
    expect(parseBranch('  feature/new-header ')).toEqual({ branch: 'feature/new-header' });
    expect(parseBranch('release-1.2_x')).toEqual({ branch: 'release-1.2_x' });
    expect(parseBranch('no spaces')).toEqual({
      error: 'A branch name holds letters, digits and . _ / - only',
    });
    expect(parseBranch('a'.repeat(201)).error).toBeTruthy();
  });

  it('names the branch shown', () => {
    expect(branchText('')).toBe('Default branch');
    expect(branchText('feature/x')).toBe('branch feature/x');
  });
});

describe('a baseline’s lines', () => {
  it('names the check', () => {
    expect(checkTitle('page')).toBe('Whole page');
    expect(checkTitle('page #2')).toBe('Whole page #2');
    expect(checkTitle('Header')).toBe('Header');
    expect(checkTitle('pages list')).toBe('pages list');
  });

  it('says the viewport, who approved it and when', () => {
    expect(viewportText({ width: 1440, height: 900 })).toBe('1440 × 900');
    expect(whenText('2026-11-30T07:10:00Z', 'en-GB', 'UTC')).toBe('30 Nov 2026, 07:10');
    expect(whenText('not a date')).toBe('not a date');
    const when = () => 'then';
    expect(
      approvedText(
        { approved_by: 'mia', created_at: 'x', source_run_id: '3f2a91c0-aaaa', copied_from: null },
        when,
      ),
    ).toBe('Approved by mia · then · from run 3f2a91c0');
    expect(
      approvedText({ approved_by: 'mia', created_at: 'x', source_run_id: null, copied_from: 'b0' }, when),
    ).toBe('Approved by mia · then · copied from an earlier baseline');
    expect(
      approvedText({ approved_by: '', created_at: 'x', source_run_id: null, copied_from: null }, when),
    ).toBe('Approved by someone · then');
  });

  it('says the threshold and the masks', () => {
    expect(thresholdText(0)).toBe('Threshold 0%');
    expect(thresholdText(0.025)).toBe('Threshold 2.5%');
    expect(masksText({ user_masks: [], moving_masks: [] })).toBe('No masks');
    expect(masksText({ user_masks: [BOX], moving_masks: [] })).toBe('1 mask');
    expect(masksText({ user_masks: [BOX, BOX], moving_masks: [BOX] })).toBe('2 masks · 1 moved by itself');
    expect(masksText({ user_masks: [BOX], moving_masks: [], element_masks: [{ role: 'img' }] })).toBe(
      '2 masks · 1 element',
    );
    expect(masksText({ user_masks: [], moving_masks: [], element_masks: [{ role: 'img' }] })).toBe(
      '1 mask · 1 element',
    );
    expect(
      masksText({ user_masks: [], moving_masks: [BOX], element_masks: [{ role: 'img' }, { text: 'Buy' }] }),
    ).toBe('2 masks · 2 elements · 1 moved by itself');
    expect(masksText({ user_masks: [BOX], moving_masks: [], element_masks: [] })).toBe('1 mask');
  });
});

describe('sortBaselines', () => {
  it('orders by case, check, viewport (widest first) and browser', () => {
    const b = (case_name: string, check_name: string, width: number, browser = 'chromium') => ({
      case_name,
      check_name,
      viewport: { width, height: 800 },
      browser,
    });
    const sorted = sortBaselines([
      b('Pricing', 'page', 1440),
      b('About', 'page #10', 1440),
      b('About', 'page #2', 1440),
      b('About', 'page', 390),
      b('About', 'page', 1440, 'firefox'),
      b('About', 'page', 1440),
    ]);
    expect(sorted.map((s) => `${s.case_name}/${s.check_name}/${s.viewport.width}/${s.browser}`)).toEqual([
      'About/page/1440/chromium',
      'About/page/1440/firefox',
      'About/page/390/chromium',
      'About/page #2/1440/chromium',
      'About/page #10/1440/chromium',
      'Pricing/page/1440/chromium',
    ]);
  });
});

describe('promotion', () => {
  it('says what is copied and what was', () => {
    expect(promoteText(3, 'feature/x')).toBe(
      'Copies the 3 baselines of branch feature/x to the default branch',
    );
    expect(promoteText(1, 'fix')).toBe('Copies the 1 baseline of branch fix to the default branch');
    expect(promotedText(2, 'fix')).toBe('Promoted 2 baselines of fix to the default branch');
    expect(promotedText(1, 'fix')).toBe('Promoted 1 baseline of fix to the default branch');
    expect(promotedText(0, 'fix')).toBe(
      'Nothing to promote: the default branch has the baselines of fix already',
    );
  });

  it('has an address', () => {
    expect(visualBaselinesPath('p 1')).toBe('/projects/p%201/baselines');
  });
});
