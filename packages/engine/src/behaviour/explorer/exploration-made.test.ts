import { describe, expect, it } from 'vitest';
import { proposeAssertions } from '../assertions';
import { candidateActions } from '../candidates';
import { diffSnapshots } from '../diff';
import type { PageSnapshot, SnapshotControl, SnapshotItem } from '../snapshot';
import { ExplorationMade } from './exploration-made';

const item = (label: string): SnapshotItem => ({
  key: `listitem:${label}`,
  role: 'listitem',
  label,
  text: label,
  states: [],
  checked: false,
});
const control = (role: string, name: string, extra: Partial<SnapshotControl> = {}): SnapshotControl => ({
  key: `${role}:${name}@${extra.item ?? ''}`,
  role,
  name,
  item: null,
  checked: role === 'checkbox' ? false : null,
  value: null,
  states: [],
  disabled: false,
  href: null,
  type: role === 'textbox' ? 'text' : role,
  form: null,
  options: [],
  leaves: false,
  required: false,
  near: null,
  ...extra,
});
const text = (t: string, item: string | null = null) => ({
  key: `${item}>${t}`,
  text: t,
  context: null,
  item,
  states: [],
});
/** A to-do page listing these items, each with its checkbox and Delete button. */
const page = (labels: string[], texts: string[] = []): PageSnapshot => ({
  url: 'http://app.test/',
  title: 'Tasks',
  items: labels.map(item),
  controls: [
    control('textbox', 'New task', { value: '' }),
    ...labels.flatMap((l) => [
      control('checkbox', 'Done', { item: l }),
      control('button', 'Delete', { item: l }),
    ]),
  ],
  hiddenControls: [],
  forms: [],
  texts: [...labels.map((l) => text(l, l)), ...texts.map((t) => text(t))],
  dialogs: [],
  counts: { listitem: labels.length },
  focused: null,
  consoleErrors: 0,
  failedRequests: 0,
});
const ids = /(?<![a-z0-9])(?=[a-z2-9]*[a-z])(?=[a-z2-9]*\d)[a-z2-9]{6}(?![a-z0-9])/;
/** Whether anything in `value` names a run id literally (the placeholder does not). */
const namesAnId = (value: unknown) => ids.test(JSON.stringify(value).replaceAll('{{RUN_ID}}', ''));

describe('what other exploration sessions made is never named', () => {
  it('takes items bearing another session id out of the snapshot: no action, region or text names them', () => {
    const made = new ExplorationMade();
    made.sessionOpened('s73fgm');
    made.sessionOpened('k4p9tz');
    const before = made.strip(page(['Seeded report', 'Buy milk s73fgm']), 'k4p9tz');
    const after = made.strip(
      page(['Seeded report', 'Buy milk s73fgm', 'Buy milk {{RUN_ID}}'], ['Task "Buy milk s73fgm" added.']),
      'k4p9tz',
    );
    expect(before.items.map((i) => i.label)).toEqual(['Seeded report']);
    expect(after.items.map((i) => i.label)).toEqual(['Seeded report', 'Buy milk {{RUN_ID}}']);
    expect(after.texts.map((t) => t.text)).not.toContain('Task "Buy milk s73fgm" added.');
    const actions = candidateActions(after, 1, { unique: true });
    expect(actions.some((a) => a.control.item === 'Buy milk {{RUN_ID}}')).toBe(true);
    expect(actions.some((a) => a.control.item === 'Seeded report')).toBe(true);
    expect(actions.filter((a) => namesAnId([a.steps, a.control, a.description]))).toEqual([]);
    const add = actions.find((a) => a.kind === 'add') ?? actions[0];
    const proposed = proposeAssertions(before, after, diffSnapshots(before, after), add);
    expect(proposed.length).toBeGreaterThan(0);
    expect(proposed.filter((p) => namesAnId(p.step))).toEqual([]);
  });

  it('takes out what an unknown session made (a typed value and an id-shaped token), unless the page had it at first', () => {
    const made = new ExplorationMade();
    made.freshPage(page(['Buy milk 2x4pack', 'Buy milk ab12cd']));
    made.typedIn({ verb: 'type', target: 'New task', text: 'Buy milk {{RUN_ID}}' });
    const seen = made.strip(
      page(['Buy milk 2x4pack', 'Buy milk ab12cd', 'Buy milk y6w2bt', 'Buy milk today']),
    );
    // Found on the page before anything was typed: data of the app's own.
    expect(seen.items.map((i) => i.label)).toEqual(['Buy milk 2x4pack', 'Buy milk ab12cd', 'Buy milk today']);
    expect(seen.controls.some((c) => c.item === 'Buy milk y6w2bt')).toBe(false);
  });

  it('keeps every item without data shared between sessions: what the setup made is the case own', () => {
    const made = new ExplorationMade();
    made.sessionOpened('s73fgm');
    made.freshPage(page([]));
    made.typedIn({ verb: 'type', target: 'New task', text: 'Buy milk' });
    const seen = page(['Buy milk', 'Walk the dog'], ['2 tasks left']);
    expect(made.strip(seen, 'k4p9tz')).toBe(seen);
  });

  it('names no id by the session that holds it, written back as the placeholder', () => {
    const made = new ExplorationMade();
    made.sessionOpened('s73fgm');
    expect(made.isMade('Buy milk s73fgm', 's73fgm')).toBe(false);
    expect(made.isMade('Buy milk s73fgm', 'k4p9tz')).toBe(true);
    expect(made.isMade('/tasks/buy-milk-s73fgm', 'k4p9tz')).toBe(true);
    expect(made.isMade('Buy milk {{RUN_ID}}', 'k4p9tz')).toBe(false);
  });
});
