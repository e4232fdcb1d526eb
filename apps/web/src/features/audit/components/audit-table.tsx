import type { AuditEntry } from '@argus/protocol';
import { cn } from '../../../lib/cn';
import { ACTION_TEXT, detailText, splitLabel, WARNING_ACTIONS } from '../model/filters';

/** The person who acted: their name, their email under it. */
function Person({ label }: { label: string }) {
  const { name, email } = splitLabel(label);
  return (
    <>
      <span className="block font-medium break-words text-slate-800">{name}</span>
      {email && <span className="block text-xs break-all text-slate-500">{email}</span>}
    </>
  );
}

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The log's rows: when, who, what (and on what), the project, and from where. */
export function AuditTable({
  items,
  projectName,
}: {
  items: readonly AuditEntry[];
  /** A project's name by id, for the projects the caller can see. */
  projectName: (id: string) => string | undefined;
}) {
  return (
    <table className="w-full table-fixed border-collapse text-left text-sm">
      <caption className="sr-only">Audit log, newest first</caption>
      <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
        <tr>
          <th scope="col" className="w-32 px-4 py-2.5 sm:w-44 sm:px-5">
            When
          </th>
          <th scope="col" className="hidden w-48 px-4 py-2.5 md:table-cell">
            Who
          </th>
          <th scope="col" className="px-4 py-2.5">
            What
          </th>
          <th scope="col" className="hidden w-40 px-4 py-2.5 lg:table-cell">
            Project
          </th>
          <th scope="col" className="hidden w-40 px-4 py-2.5 xl:table-cell">
            From
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {items.map((entry) => {
          const project = entry.project_id ? (projectName(entry.project_id) ?? 'A deleted project') : null;
          const detail = detailText(entry.detail);
          return (
            <tr key={entry.id} data-testid="audit-row" data-action={entry.action} className="align-top">
              <td className="px-4 py-3 text-xs text-slate-600 sm:px-5">
                <time dateTime={entry.created_at}>{WHEN.format(new Date(entry.created_at))}</time>
              </td>
              <td className="hidden px-4 py-3 md:table-cell">
                <Person label={entry.actor_label} />
              </td>
              <td className="min-w-0 px-4 py-3">
                <p
                  className={cn(
                    'font-medium',
                    WARNING_ACTIONS.has(entry.action) ? 'text-red-700' : 'text-slate-900',
                  )}
                >
                  {ACTION_TEXT[entry.action]}
                  {entry.target && <span className="font-normal text-slate-700"> · {entry.target}</span>}
                </p>
                {/* What the hidden columns hold, under the action on a narrow screen. */}
                <p className="mt-0.5 text-xs break-words text-slate-600 md:hidden">
                  {splitLabel(entry.actor_label).name}
                </p>
                {project && <p className="mt-0.5 text-xs text-slate-600 lg:hidden">{project}</p>}
                {detail && <p className="mt-0.5 text-xs break-words text-slate-500">{detail}</p>}
              </td>
              <td className="hidden px-4 py-3 break-words text-slate-700 lg:table-cell">{project ?? '—'}</td>
              <td
                className="hidden px-4 py-3 text-xs text-slate-600 xl:table-cell"
                title={entry.user_agent ?? undefined}
              >
                {entry.ip ?? '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
