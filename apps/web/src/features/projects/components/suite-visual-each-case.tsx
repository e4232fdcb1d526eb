import type { SavedSuite } from '@argus/protocol';
import toast from 'react-hot-toast';
import { errorText } from '../../../lib/api-error';
import { useCan } from '../../../lib/organization';
import { isSuiteVersionConflict, useSaveSuite } from '../api/save-suite';
import { visualEachCaseSave } from '../model/suites';

/**
 * "Visual check after every case": each case's run ends with `Verify the page looks as approved`
 * unless it ends with a visual check already (docs/VISUAL-CHECKS.md#a-check-after-every-case). Saved on
 * change like the retries, with no new version; the suite's cases stay as written.
 */
export function SuiteVisualEachCase({ suite }: { suite: SavedSuite }) {
  const save = useSaveSuite();
  // Saving it saves the suite: an editor's change; others read the setting.
  const canEdit = useCan('PUT /api/projects/:id/suites/:suiteId');
  const onChange = (on: boolean) =>
    save.mutate(
      { projectId: suite.project_id, suiteId: suite.id, suite: visualEachCaseSave(suite, on) },
      {
        onSuccess: () => toast.success(`${suite.name}: visual check after every case ${on ? 'on' : 'off'}`),
        onError: (error) =>
          toast.error(
            isSuiteVersionConflict(error)
              ? `${suite.name} was saved elsewhere meanwhile; its visual check was not changed`
              : errorText(error, 'The visual check setting could not be saved'),
          ),
      },
    );
  return (
    <label
      className="inline-flex items-center gap-1.5 font-medium text-slate-700"
      title="Each case ends with “Verify the page looks as approved” (unless it already ends with a visual check)"
    >
      <input
        type="checkbox"
        checked={suite.visual_each_case}
        disabled={!canEdit || save.isPending}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        data-testid="suite-visual-each-case"
      />
      Visual check after every case
    </label>
  );
}
