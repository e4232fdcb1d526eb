import { type RecordingSettings, TRACE_POLICIES, type TracePolicy } from '@argus/protocol';

/** How each trace policy reads (docs/DIAGNOSTICS.md). */
export const TRACE_POLICY_LABELS: Record<TracePolicy, string> = {
  'on-failure': 'On failure',
  always: 'Always',
  off: 'Off',
};

const SELECT =
  'rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-xs text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-100 focus:outline-none disabled:opacity-60';

/**
 * "Traces" (which cases keep their Playwright trace) and "Video of failed cases", as a saved suite's
 * row shows them beside its retries (docs/DIAGNOSTICS.md).
 */
export function RecordingFields(props: {
  id: string;
  value: RecordingSettings;
  onChange: (recording: RecordingSettings) => void;
  disabled?: boolean;
}) {
  const { id, value, onChange, disabled } = props;
  return (
    <>
      <label htmlFor={`${id}-traces`} className="font-medium text-slate-700">
        Traces
      </label>
      <select
        id={`${id}-traces`}
        value={value.trace}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, trace: event.target.value as TracePolicy })}
        className={SELECT}
        data-testid="suite-traces"
      >
        {TRACE_POLICIES.map((policy) => (
          <option key={policy} value={policy}>
            {TRACE_POLICY_LABELS[policy]}
          </option>
        ))}
      </select>
      <label className="inline-flex items-center gap-1.5 font-medium text-slate-700">
        <input
          type="checkbox"
          checked={value.video}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, video: event.target.checked })}
          className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60"
          data-testid="suite-video"
        />
        Video of failed cases
      </label>
    </>
  );
}
