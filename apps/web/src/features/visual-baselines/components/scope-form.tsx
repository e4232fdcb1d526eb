import { GitBranch } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/button';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import { parseBranch } from '../model/baselines';

/**
 * Which baselines the screen shows: the environment (the project's, the default one first; a change
 * shows at once) and the branch (empty: the default branch; a name shows once sent, checked as a
 * branch name).
 */
export function ScopeForm({
  environments,
  environmentId,
  branch,
  onChange,
}: {
  environments: { value: string; label: string }[];
  environmentId: string;
  branch: string;
  onChange: (scope: { environmentId: string; branch: string }) => void;
}) {
  const [text, setText] = useState(branch);
  const [error, setError] = useState<string | undefined>();
  // The address changed (back, a link): the field follows it.
  useEffect(() => {
    setText(branch);
    setError(undefined);
  }, [branch]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseBranch(text);
    if (parsed.error !== undefined) {
      setError(parsed.error);
      return;
    }
    setText(parsed.branch);
    onChange({ environmentId, branch: parsed.branch });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Which baselines"
      className="mt-5 grid gap-4 border-t border-slate-100 pt-5 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start"
    >
      <SelectField
        label="Environment"
        value={environmentId}
        options={environments}
        onChange={(event) => onChange({ environmentId: event.target.value, branch })}
      />
      <TextField
        label="Branch"
        placeholder="Default branch"
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        value={text}
        error={error}
        icon={<GitBranch className="size-4" aria-hidden />}
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
        }}
      >
        <p className="mt-1.5 text-xs text-slate-600">Empty: the default branch.</p>
      </TextField>
      <Button type="submit" variant="secondary" className="sm:mt-7">
        Show baselines
      </Button>
    </form>
  );
}
