import type { SettingsResponse } from '@argus/protocol';
import { AlertTriangle, Gauge, Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/button';
import { Panel } from '../../../components/panel';
import { TextField } from '../../../components/text-field';
import { errorText } from '../../../lib/api-error';
import { useUpdateSettings } from '../api/update-settings';
import { formatCount, formatMonthStart, formatUsd, parseBudget } from '../model/settings-form';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200 ring-inset">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-0.5 truncate text-lg font-semibold text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Model calls, tokens and estimated cost this month, and the monthly budget that stops calls when reached. */
export function UsagePanel({ settings }: { settings: SettingsResponse }) {
  const { usage } = settings;
  const [budget, setBudget] = useState(
    settings.monthly_budget_usd === null ? '' : String(settings.monthly_budget_usd),
  );
  const [error, setError] = useState<string | undefined>();
  const save = useUpdateSettings();

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseBudget(budget);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    save.mutate(
      { monthly_budget_usd: parsed.value },
      {
        onSuccess: (saved) => {
          setBudget(saved.monthly_budget_usd === null ? '' : String(saved.monthly_budget_usd));
          toast.success(
            saved.monthly_budget_usd === null ? 'Monthly budget removed' : 'Monthly budget saved',
          );
        },
        onError: (failure) => {
          setError(errorText(failure, 'The budget could not be saved'));
          toast.error(errorText(failure, 'The budget could not be saved'));
        },
      },
    );
  };

  return (
    <Panel
      title="Usage this month"
      icon={Gauge}
      subtitle={`Model calls since ${formatMonthStart(settings.usage_since)} (UTC)`}
      testId="usage-panel"
    >
      <div className="space-y-5">
        <dl className="grid grid-cols-2 gap-3">
          <Figure label="Model calls" value={formatCount(usage.model_calls)} testId="usage-calls" />
          <Figure label="Estimated cost" value={formatUsd(usage.cost_usd)} testId="usage-cost" />
          <Figure label="Input tokens" value={formatCount(usage.input_tokens)} testId="usage-input-tokens" />
          <Figure
            label="Output tokens"
            value={formatCount(usage.output_tokens)}
            testId="usage-output-tokens"
          />
        </dl>
        <p className="text-xs text-slate-500">
          Costs are estimated from the providers' list prices; self-hosted models count as free.
        </p>
        {settings.budget_reached && (
          <div
            role="alert"
            data-testid="budget-reached"
            className="flex items-start gap-2.5 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              Your monthly budget is reached: model calls are stopped until the 1st of next month, or until
              you raise it.
            </span>
          </div>
        )}
        <form
          onSubmit={onSave}
          noValidate
          className="flex flex-wrap items-end gap-3"
          aria-label="Monthly budget"
        >
          <TextField
            label="Monthly budget (USD)"
            name="monthly_budget_usd"
            inputMode="decimal"
            placeholder="No limit"
            className="min-w-40 flex-1"
            value={budget}
            onChange={(event) => {
              setBudget(event.target.value);
              setError(undefined);
            }}
            error={error}
          />
          <Button type="submit" variant="secondary" disabled={save.isPending}>
            {save.isPending && <Loader2 className="size-4 animate-spin" aria-hidden />}
            Save budget
          </Button>
        </form>
        <p className="-mt-2 text-xs text-slate-500">
          Leave it empty for no limit. Reaching it stops model calls with a message.
        </p>
      </div>
    </Panel>
  );
}
