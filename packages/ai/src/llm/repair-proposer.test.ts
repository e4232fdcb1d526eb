import { describe, expect, it } from 'vitest';
import { acceptedAnswer, repairPrompt } from './repair-proposer';

describe('repairPrompt', () => {
  it('shows a long case around its failed step, saying how many steps are left out', () => {
    const steps = Array.from({ length: 500 }, (_, i) => `Click "Item ${i + 1}"`);
    const prompt = repairPrompt(
      { steps, failedIndex: 250, error: 'not found', lastSelector: null },
      'URL: /',
    );
    expect(prompt).toContain('   (220 steps before)');
    expect(prompt).toContain('   221. Click "Item 221"');
    expect(prompt).toContain('>> 251. Click "Item 251"   <- FAILED');
    expect(prompt).toContain('   261. Click "Item 261"');
    expect(prompt).not.toContain('Click "Item 262"');
    expect(prompt).toContain('   (239 steps after)');
  });

  it('clips a very long step and a long error', () => {
    const prompt = repairPrompt(
      {
        steps: [`Verify text "${'x'.repeat(3000)}" is visible`],
        failedIndex: 0,
        error: 'e'.repeat(5000),
        lastSelector: null,
      },
      '',
    );
    expect(prompt).toContain(`>> 1. Verify text "${'x'.repeat(286)}…   <- FAILED`);
    expect(prompt).toContain(`Failed step 1: Verify text "${'x'.repeat(286)}…\n`);
    expect(prompt).not.toContain('x'.repeat(287));
    expect(prompt).toContain(`Its error now: ${'e'.repeat(600)}\n`);
  });
});

describe('acceptedAnswer', () => {
  it('keeps 1 to 4 lines of the step language, trimmed, blank lines dropped', () => {
    expect(
      acceptedAnswer({ lines: ['  Click button "More"', '', 'Click menuitem "Add" '], reason: ' moved ' }),
    ).toEqual({
      lines: ['Click button "More"', 'Click menuitem "Add"'],
      reason: 'moved',
    });
  });

  it('refuses no lines, more than 4, or any line that is not step language', () => {
    expect(acceptedAnswer({ lines: [' '], reason: 'nothing adds a task' })).toBeNull();
    expect(acceptedAnswer({ lines: Array(5).fill('Click "A"'), reason: '' })).toBeNull();
    expect(acceptedAnswer({ lines: ['Click "A"', 'Press the big green button'], reason: '' })).toBeNull();
  });
});
