import { ArrowLeft, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ScreenHeader } from '../../components/screen-header';
import { SelectField } from '../../components/select-field';
import { Spinner } from '../../components/spinner';
import { errorText } from '../../lib/api-error';
import { useProjectEnvironments, useSuite } from './api/get-context';
import { useRegenerate } from './api/regenerate';
import { elapsedText } from './model/comparison';
import { suiteComparisonPath } from './model/paths';

export const backLinkClass =
  'inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/** Seconds since `since` while it is set, redrawn each second. */
function useElapsed(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, now - since);
}

/** While the generation runs: what is happening, how long it has taken, and Cancel. */
function Busy({
  environment,
  since,
  onCancel,
}: {
  environment: string;
  since: number;
  onCancel: () => void;
}) {
  const elapsed = useElapsed(since);
  return (
    <div
      className="flex flex-wrap items-center gap-4 rounded-2xl border border-indigo-200 bg-indigo-50 p-5"
      data-testid="regenerate-busy"
    >
      <Spinner className="size-6 text-indigo-600" label="Regenerating" />
      <div className="min-w-0 flex-1 basis-60">
        <p role="status" className="text-sm font-semibold text-indigo-950">
          Generating cases on {environment} and matching them to the saved ones…
        </p>
        <p className="text-xs text-indigo-900">
          As long as a generation takes, often a minute or two.{' '}
          <span aria-hidden>{elapsedText(elapsed)}</span>
        </p>
      </div>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

/**
 * /projects/:id/suites/:suiteId/regenerate: a generation on an environment, matched to the saved cases
 * by behaviour; the answer opens as a comparison to review (nothing is saved until accepted).
 * Cancel stops waiting.
 */
export function RegenerateScreen({ projectId, suiteId }: { projectId: string; suiteId: string }) {
  const suite = useSuite(projectId, suiteId);
  const project = useProjectEnvironments(projectId);
  const regenerate = useRegenerate();
  const navigate = useNavigate();
  const [chosenEnv, setChosenEnv] = useState('');
  const [since, setSince] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const environments = project.data?.environments ?? [];
  const environmentId = chosenEnv || environments.find((e) => e.is_default)?.id || environments[0]?.id || '';
  const environmentName = environments.find((e) => e.id === environmentId)?.name ?? 'the environment';

  const start = () => {
    const controller = new AbortController();
    abort.current = controller;
    setSince(Date.now());
    regenerate.mutate(
      {
        projectId,
        suiteId,
        body: environmentId ? { environment_id: environmentId } : {},
        signal: controller.signal,
      },
      {
        onSuccess: (comparison) =>
          navigate(suiteComparisonPath(projectId, suiteId, comparison.id), { replace: true }),
        onSettled: () => setSince(null),
      },
    );
  };
  const cancel = () => {
    abort.current?.abort();
    regenerate.reset();
    setSince(null);
  };

  const name = suite.data?.name ?? 'saved suite';
  return (
    <div className="mx-auto w-full max-w-6xl space-y-5" data-testid="regenerate-page">
      <Link to={`/projects/${encodeURIComponent(projectId)}`} className={backLinkClass}>
        <ArrowLeft className="size-4" aria-hidden />
        Project
      </Link>
      <ScreenHeader
        icon={RefreshCw}
        title={`Regenerate ${name}`}
        titleClassName="basis-60"
        description={
          <p className="mt-1 text-sm text-slate-600">
            A new generation on the environment, its cases matched to the saved ones by the behaviour they
            test. You choose what changes; curated cases are never replaced without your choice.
          </p>
        }
        aside={suite.data ? <Badge tone="indigo">v{suite.data.version}</Badge> : null}
      />
      {since !== null ? (
        <Busy environment={environmentName} since={since} onCancel={cancel} />
      ) : (
        <form
          className="flex flex-wrap items-end gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-xs"
          onSubmit={(event) => {
            event.preventDefault();
            start();
          }}
        >
          <SelectField
            label="Environment"
            className="min-w-0 flex-1 basis-60"
            value={environmentId}
            disabled={project.isPending}
            onChange={(event) => setChosenEnv(event.target.value)}
            options={environments.map((e) => ({ value: e.id, label: `${e.name} (${e.base_url})` }))}
          />
          <Button type="submit" disabled={!environmentId}>
            <RefreshCw className="size-4" aria-hidden />
            Regenerate
          </Button>
        </form>
      )}
      {regenerate.isError && !(regenerate.error instanceof DOMException) && (
        <p className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-800" role="alert">
          {errorText(regenerate.error, 'The suite could not be regenerated')}
        </p>
      )}
    </div>
  );
}
