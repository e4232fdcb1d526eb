import type { SavedSuite, SuiteCaseChange, SuiteChangeKind, SuiteComparison } from '@argus/protocol';

// What the comparison review decides before it draws (docs/REPAIRS.md#regenerate-and-compare): the
// groups in their order, what is chosen at first, and the sentences it says.

export const GROUP_ORDER: readonly SuiteChangeKind[] = ['added', 'removed', 'changed', 'unchanged'];

export const GROUP_TEXT: Record<SuiteChangeKind, { title: string; hint: string }> = {
  added: { title: 'Added', hint: 'Behaviours the app has that no saved case tests' },
  removed: { title: 'Removed', hint: 'Saved cases whose behaviour the generation no longer found' },
  changed: { title: 'Changed', hint: 'The same behaviour, tested with other steps' },
  unchanged: { title: 'Unchanged', hint: 'Saved cases the generation tests the same way' },
};

/** The changes by kind, each group in the server's order. */
export function groupChanges(comparison: SuiteComparison): Record<SuiteChangeKind, SuiteCaseChange[]> {
  const groups: Record<SuiteChangeKind, SuiteCaseChange[]> = {
    added: [],
    removed: [],
    changed: [],
    unchanged: [],
  };
  for (const change of comparison.changes) groups[change.kind].push(change);
  return groups;
}

/** Whether a change can be accepted at all: an unchanged case has nothing to accept. */
export function isAcceptable(change: SuiteCaseChange): boolean {
  return change.kind !== 'unchanged';
}

/**
 * What is chosen when the review opens: new behaviours, and changed cases unless a person edited the
 * saved one (curated: never replaced without a choice). A removal is never chosen for the reviewer.
 */
export function defaultSelection(comparison: SuiteComparison): Set<string> {
  return new Set(
    comparison.changes
      .filter((c) => c.kind === 'added' || (c.kind === 'changed' && !c.curated))
      .map((c) => c.key),
  );
}

/** The case's name as the review shows it: the generated one's, else the saved one's. */
export function caseName(change: SuiteCaseChange): string {
  return change.generated?.test_name ?? change.saved?.test_name ?? change.behaviour;
}

/** 'Added 1 · Removed 1 · Changed 0 · Unchanged 7'. */
export function countsText(comparison: SuiteComparison): string {
  return GROUP_ORDER.map((kind) => `${GROUP_TEXT[kind].title} ${comparison.counts[kind]}`).join(' · ');
}

/** What an accept saved: 'Saved as version 5: Regenerated: 2 cases added, 1 removed'. */
export function acceptedText(suite: SavedSuite): string {
  const change = suite.versions.find((v) => v.version === suite.version)?.change;
  return change ? `Saved as version ${suite.version}: ${change}` : `Saved as version ${suite.version}`;
}

/** A regeneration's elapsed time: '0:07', '1:32'. */
export function elapsedText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
