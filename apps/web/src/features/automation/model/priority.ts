/** Priority colours (docs/PRODUCT.md#test-cases): high and critical red, medium orange, low green; default medium. */
export type PriorityTone = 'red' | 'orange' | 'green';

export function priorityTone(priority: string | null | undefined): PriorityTone {
  const value = (priority ?? '').trim().toLowerCase();
  if (value === 'high' || value === 'critical') return 'red';
  if (value === 'low') return 'green';
  return 'orange';
}

export function priorityLabel(priority: string | null | undefined): string {
  const value = (priority ?? '').trim().toLowerCase() || 'medium';
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** docs/PRODUCT.md#test-cases: a case shows its first 3 steps, then '... and N more steps'. */
export const PREVIEW_STEPS = 3;

export function stepPreview(steps: readonly string[]): { shown: readonly string[]; more: string | null } {
  const shown = steps.slice(0, PREVIEW_STEPS);
  const rest = steps.length - shown.length;
  return { shown, more: rest > 0 ? `... and ${rest} more steps` : null };
}
