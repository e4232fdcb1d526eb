import type { TestCase } from '@argus/protocol';
import { Plus, X } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { SmallButton } from '../../../components/small-button';
import { checkCustomCase } from '../model/custom-case';

export interface CustomCaseFormProps {
  existingNames: readonly string[];
  url: string | null;
  disabled: boolean;
  onAdd: (testCase: TestCase) => Promise<boolean>;
  /** Another action beside "Add custom test" while the form is closed. */
  aside?: ReactNode;
}

const EXAMPLES = [
  'Navigate to /login.html',
  'Fill "Username" with "demo"',
  'Click button "Sign in"',
  'Verify text "Welcome back" is visible',
  'Verify URL contains "/account"',
];

function newId(): string {
  // crypto.randomUUID needs a secure context; a LAN address over plain HTTP is not one.
  return `custom-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm outline-none transition placeholder:text-slate-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20';

/**
 * A test the user writes in the step language (docs/STEP-LANGUAGE.md), checked line by line with the
 * engine's own parser as it is typed, so what is added will run.
 */
export function CustomCaseForm({ existingNames, url, disabled, onAdd, aside }: CustomCaseFormProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState({ name: '', description: '', steps: '' });
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const ids = useId();
  const check = checkCustomCase(draft, existingNames, url, 'draft');
  const show = touched || draft.steps.length > 0;

  if (!open) {
    const add = (
      <SmallButton
        icon={Plus}
        onClick={() => setOpen(true)}
        disabled={disabled}
        className={aside ? 'flex-1 whitespace-nowrap' : 'mb-4 w-full'}
      >
        Add custom test
      </SmallButton>
    );
    return aside ? (
      <div className="mb-4 flex flex-wrap gap-2">
        {add}
        {aside}
      </div>
    ) : (
      add
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!check.testCase || saving) return;
    setSaving(true);
    const added = await onAdd({ ...check.testCase, id: newId() });
    setSaving(false);
    if (added) {
      setDraft({ name: '', description: '', steps: '' });
      setTouched(false);
      setOpen(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      className="mb-4 space-y-3 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4"
      aria-label="Custom test"
      data-testid="custom-case-form"
    >
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-900">Custom test</h3>
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded-md p-1 text-slate-500 hover:bg-white hover:text-slate-800"
          aria-label="Close custom test form"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      <div>
        <label htmlFor={`${ids}-name`} className="mb-1 block text-xs font-medium text-slate-700">
          Test name
        </label>
        <input
          id={`${ids}-name`}
          className={inputClass}
          value={draft.name}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
          placeholder="Sign in with the demo account"
          maxLength={250}
        />
        {touched && check.nameProblem && <p className="mt-1 text-xs text-red-600">{check.nameProblem}</p>}
      </div>
      <div>
        <label htmlFor={`${ids}-description`} className="mb-1 block text-xs font-medium text-slate-700">
          Description (optional)
        </label>
        <input
          id={`${ids}-description`}
          className={inputClass}
          value={draft.description}
          onChange={(event) => setDraft({ ...draft, description: event.target.value })}
        />
      </div>
      <div>
        <label htmlFor={`${ids}-steps`} className="mb-1 block text-xs font-medium text-slate-700">
          Steps, one per line
        </label>
        <textarea
          id={`${ids}-steps`}
          className={`${inputClass} min-h-32 font-mono text-xs`}
          value={draft.steps}
          onChange={(event) => setDraft({ ...draft, steps: event.target.value })}
          placeholder={EXAMPLES.join('\n')}
          spellCheck={false}
          aria-describedby={`${ids}-steps-help`}
        />
        {show && check.stepsProblem && (
          <div className="mt-1 text-xs text-red-600" data-testid="custom-case-problem">
            <p>{check.stepsProblem}</p>
            {check.badLines.length > 0 && (
              <ul className="mt-1 space-y-0.5">
                {check.badLines.slice(0, 5).map((bad) => (
                  <li key={bad.line} className="font-mono break-words">
                    Line {bad.line}: {bad.text}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <p id={`${ids}-steps-help`} className="mt-1 text-[11px] leading-relaxed text-slate-500">
          Verbs: Navigate to, Click, Fill … with, Select … from, Check, Press, Hover, Scroll to, Wait for,
          Verify text / URL / title / field, Verify page has no console errors, Verify all links work, Verify
          no accessibility violations. Checked with the engine's own parser as you type.
        </p>
      </div>
      <div className="flex justify-end gap-2">
        <SmallButton onClick={() => setOpen(false)}>Cancel</SmallButton>
        <SmallButton
          type="submit"
          variant="primary"
          icon={Plus}
          disabled={disabled || saving || !check.testCase}
        >
          Add test
        </SmallButton>
      </div>
    </form>
  );
}
