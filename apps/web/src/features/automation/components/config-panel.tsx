import type { TestMode } from '@argus/protocol';
import {
  AlertTriangle,
  Globe,
  KeyRound,
  Layers,
  Loader2,
  Settings2,
  Sparkles,
  SquareTerminal,
} from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { FormPanel } from '../../../components/form-panel';
import { SegmentedControl, type SegmentedOption } from '../../../components/segmented-control';
import { cn } from '../../../lib/cn';
import { useCan } from '../../../lib/organization';

const MODES: SegmentedOption<TestMode>[] = [
  { value: 'full', label: 'Full', hint: 'Explore the site and test everything found', icon: Layers },
  { value: 'command', label: 'Command', hint: 'Test what you describe in plain words', icon: SquareTerminal },
];

export interface ConfigPanelProps {
  mode: TestMode;
  onModeChange: (mode: TestMode) => void;
  modeLocked: boolean;
  url: string;
  onUrlChange: (url: string) => void;
  command: string;
  onCommandChange: (command: string) => void;
  generating: boolean;
  canGenerate: boolean;
  onGenerate: () => void;
  /** Live messages from the server while it generates. */
  generationMessages: readonly string[];
  /** Choose a project and one of its environments (when the app has projects). */
  projectPicker?: ReactNode;
  /** Under the URL: where the work runs (a project environment), or why the URL does not fit it. */
  projectNote?: { text: string; tone: 'info' | 'loading' | 'problem' } | null;
}

const NOTE_ICONS = { info: KeyRound, loading: Loader2, problem: AlertTriangle } as const;

type ProjectNote = NonNullable<ConfigPanelProps['projectNote']>;

/** The website URL (Enter generates), with the note under it: the project environment, or the problem. */
function WebsiteUrlField({
  url,
  onUrlChange,
  onEnter,
  note,
}: {
  url: string;
  onUrlChange: (url: string) => void;
  onEnter: () => void;
  note: ProjectNote | null | undefined;
}) {
  const urlId = useId();
  const noteId = useId();
  const NoteIcon = note ? NOTE_ICONS[note.tone] : null;
  return (
    <div>
      <label htmlFor={urlId} className="block text-sm font-medium text-slate-700">
        Website URL
      </label>
      <div className="relative mt-1.5">
        <Globe
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          aria-hidden
        />
        <input
          id={urlId}
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          placeholder="https://example.com"
          value={url}
          aria-describedby={note ? noteId : undefined}
          aria-invalid={note?.tone === 'problem' ? true : undefined}
          onChange={(event) => onUrlChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              onEnter();
            }
          }}
          className="block w-full rounded-lg border border-slate-300 bg-white py-2.5 pr-3 pl-9 text-sm text-slate-900 shadow-xs transition placeholder:text-slate-500 focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none aria-invalid:border-amber-500"
        />
      </div>
      {note && NoteIcon && (
        <p
          id={noteId}
          className={cn(
            'mt-1.5 flex items-start gap-1.5 text-xs',
            note.tone === 'problem' ? 'text-amber-800' : 'text-slate-600',
          )}
          data-testid="project-target-note"
          data-tone={note.tone}
        >
          <NoteIcon
            className={cn(
              'mt-px size-3.5 shrink-0',
              note.tone === 'loading' && 'animate-spin',
              note.tone === 'info' && 'text-indigo-600',
            )}
            aria-hidden
          />
          <span className="min-w-0 break-words">{note.text}</span>
        </p>
      )}
    </div>
  );
}

/** What the server says while it generates, the latest highlighted. */
function GenerationMessages({ messages }: { messages: readonly string[] }) {
  return (
    <ul className="space-y-1 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600" aria-live="polite">
      {messages.map((message, index) => (
        <li
          key={`${index}-${message}`}
          className={cn(
            'flex items-start gap-2',
            index === messages.length - 1 ? 'text-indigo-700' : 'text-slate-500',
          )}
          data-testid="generation-message"
        >
          <span className="mt-1.5 size-1.5 shrink-0 rounded-full bg-current" aria-hidden />
          <span className="min-w-0 break-words">{message}</span>
        </li>
      ))}
    </ul>
  );
}

/** The left column (docs/PRODUCT.md#generation): mode switch, URL, command (command mode) and Generate. */
export function ConfigPanel(props: ConfigPanelProps) {
  const commandId = useId();
  // Generating needs the runner role in the current organization (the permission table): below it, no button.
  const mayGenerate = useCan('generate_test_cases');
  return (
    <FormPanel
      title="Test Configuration"
      icon={Settings2}
      testId="config-panel"
      onSubmit={props.onGenerate}
      className="space-y-4"
    >
      <SegmentedControl
        legend="Test mode"
        name="test-mode"
        value={props.mode}
        onChange={props.onModeChange}
        options={MODES}
        disabled={props.modeLocked}
      >
        <p className="mt-1.5 text-xs text-slate-500">
          {MODES.find((option) => option.value === props.mode)?.hint}
          {props.modeLocked && ' · locked while busy'}
        </p>
      </SegmentedControl>

      {props.projectPicker}

      <WebsiteUrlField
        url={props.url}
        onUrlChange={props.onUrlChange}
        onEnter={props.onGenerate}
        note={props.projectNote}
      />

      {props.mode === 'command' && (
        <div>
          <label htmlFor={commandId} className="block text-sm font-medium text-slate-700">
            Command
          </label>
          <textarea
            id={commandId}
            rows={3}
            maxLength={4000}
            placeholder="e.g. test the login form"
            value={props.command}
            onChange={(event) => props.onCommandChange(event.target.value)}
            className="mt-1.5 block w-full resize-y rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs transition placeholder:text-slate-500 focus:border-indigo-500 focus:ring-4 focus:ring-indigo-100 focus:outline-none"
          />
          <p className="mt-1 text-xs text-slate-500">Describe what to test in plain words.</p>
        </div>
      )}

      {mayGenerate ? (
        <button
          type="submit"
          disabled={!props.canGenerate}
          className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:bg-indigo-300"
        >
          {props.generating ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <Sparkles className="size-4" aria-hidden />
          )}
          {props.generating ? 'Generating...' : 'Generate Test Cases'}
        </button>
      ) : (
        <p className="text-sm text-slate-600" data-testid="generate-needs-role">
          Generating and running tests needs the runner role in this organization.
        </p>
      )}

      {props.generating && props.generationMessages.length > 0 && (
        <GenerationMessages messages={props.generationMessages} />
      )}
    </FormPanel>
  );
}
