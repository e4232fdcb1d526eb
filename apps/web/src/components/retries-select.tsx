import { SUITE_MAX_RETRIES } from '@argus/protocol';

/** The Retries choices: 0 to SUITE_MAX_RETRIES (docs/HISTORY.md#retries). */
export const RETRY_CHOICES: readonly number[] = Array.from({ length: SUITE_MAX_RETRIES + 1 }, (_, n) => n);

/** How a choice reads: 'No retries', '1 retry', '3 retries'. */
export function retriesLabel(retries: number): string {
  if (retries === 0) return 'No retries';
  return retries === 1 ? '1 retry' : `${retries} retries`;
}

/**
 * "Retries" and its choices, as a saved suite's row and the Automation screen show them: how many
 * times a failed test runs again (one that then passes is marked flaky).
 */
export function RetriesSelect(props: {
  id: string;
  value: number;
  onChange: (retries: number) => void;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <>
      <label htmlFor={props.id} className="font-medium text-slate-700">
        Retries
      </label>
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onChange(Number(event.target.value))}
        className="rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-xs text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-100 focus:outline-none disabled:opacity-60"
        data-testid={props.testId}
      >
        {RETRY_CHOICES.map((n) => (
          <option key={n} value={n}>
            {retriesLabel(n)}
          </option>
        ))}
      </select>
    </>
  );
}
