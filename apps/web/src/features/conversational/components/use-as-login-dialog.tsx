import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, KeyRound, Loader2, ShieldCheck } from 'lucide-react';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { SelectField } from '../../../components/select-field';
import { Spinner } from '../../../components/spinner';
import { TextAreaField } from '../../../components/text-area-field';
import { getConversation } from '../api/get-conversation';
import { checkLoginSteps, loginDraft, PASSWORD_PLACEHOLDER, PASSWORD_SECRET } from '../model/login-steps';
import type { ConversationalProjects } from '../types';

export interface UseAsLoginDialogProps {
  open: boolean;
  onClose: () => void;
  conversationId: string;
  projects: ConversationalProjects;
}

/**
 * 'Use as login' (docs/PROJECTS.md#sites-behind-a-login): what the conversation did (the steps 'Save
 * as test' saves) becomes a project's recorded login, reviewed first; the typed password becomes the
 * project's {{PASSWORD}} secret. Saved with PUT /api/projects/{id} `{login: {mode: 'steps', steps}}`.
 */
export function UseAsLoginDialog({ open, onClose, conversationId, projects }: UseAsLoginDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Use as login"
      description="Argus replays these steps to sign in to the project's site before every run."
      size="lg"
    >
      {open && <UseAsLoginForm conversationId={conversationId} projects={projects} onClose={onClose} />}
    </Dialog>
  );
}

const LOGIN_MODE_TEXT = { credentials: 'a username and password', steps: 'recorded steps' } as const;

const NO_PROJECT = { project: undefined, failed: false, saveLogin: async () => {}, saving: false };

/** Calls the app's project hook for the chosen project only (a project id is never empty there). */
function ProjectLogin({
  projectId,
  projects,
  children,
}: {
  projectId: string;
  projects: ConversationalProjects;
  children: (login: ReturnType<ConversationalProjects['useProjectLogin']>) => ReactNode;
}) {
  return children(projects.useProjectLogin(projectId));
}

function UseAsLoginForm({
  conversationId,
  projects,
  onClose,
}: {
  conversationId: string;
  projects: ConversationalProjects;
  onClose: () => void;
}) {
  const choices = projects.useProjectChoices();
  // Read again on every opening: the conversation may have done more since.
  const conversation = useQuery({
    queryKey: ['conversations', conversationId],
    queryFn: ({ signal }) => getConversation(conversationId, signal),
    refetchOnMount: 'always',
  });
  const [picked, setPicked] = useState('');
  const [edited, setEdited] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ id: string; name: string; secretMissing: boolean } | null>(null);
  const list = choices.projects;
  const projectId = picked || (list?.length === 1 ? list[0].id : '');

  if (saved) {
    return (
      <div className="space-y-4" data-testid="login-saved">
        <p className="flex items-start gap-2 text-sm text-emerald-900" role="status">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
          <span>
            Login saved to {saved.name}. Argus signs in with these steps before each run on its environments.
            {saved.secretMissing && ` Add the secret ${PASSWORD_SECRET} to the project before the next run.`}
          </span>
        </p>
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-4">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Link
            to={projects.projectHref(saved.id)}
            className="inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Open {saved.name}
          </Link>
        </div>
      </div>
    );
  }

  const options = [
    { value: '', label: list === undefined ? 'Loading projects…' : 'Choose a project', disabled: true },
    ...(list ?? []).map((project) => ({ value: project.id, label: project.name })),
  ];

  const editor = (login: ReturnType<ConversationalProjects['useProjectLogin']>) => (
    <StepsEditor
      projectId={projectId}
      login={login}
      record={conversation.data}
      edited={edited}
      onEdit={setEdited}
      projects={projects}
      onSaved={(name, secretMissing) => setSaved({ id: projectId, name, secretMissing })}
      onClose={onClose}
    />
  );

  return (
    <div className="space-y-4" data-testid="use-as-login">
      {list !== undefined && list.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="no-projects">
          You have no projects yet.{' '}
          <Link
            to={projects.newProjectHref}
            className="font-semibold text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
          >
            Create a project
          </Link>{' '}
          for this site, then save its login from here.
        </p>
      ) : (
        <SelectField
          label="Project"
          value={projectId}
          onChange={(event) => setPicked(event.target.value)}
          options={options}
          error={choices.failed ? 'Your projects could not be loaded' : undefined}
          data-testid="login-project"
        />
      )}
      {conversation.isPending ? (
        <div className="flex justify-center py-6 text-indigo-600">
          <Spinner label="Loading the conversation's steps" />
        </div>
      ) : conversation.isError ? (
        <p className="text-sm text-red-700" role="alert">
          The conversation could not be read: {conversation.error.message}
        </p>
      ) : projectId ? (
        <ProjectLogin key={projectId} projectId={projectId} projects={projects}>
          {editor}
        </ProjectLogin>
      ) : (
        editor(NO_PROJECT)
      )}
    </div>
  );
}

function StepsEditor({
  projectId,
  login,
  record,
  edited,
  onEdit,
  projects,
  onSaved,
  onClose,
}: {
  projectId: string;
  login: ReturnType<ConversationalProjects['useProjectLogin']>;
  record: Parameters<typeof loginDraft>[0] | undefined;
  edited: string | null;
  onEdit: (text: string) => void;
  projects: ConversationalProjects;
  onSaved: (projectName: string, secretMissing: boolean) => void;
  onClose: () => void;
}) {
  const { project } = login;
  const baseUrls = project?.baseUrls;
  const draft = useMemo(() => loginDraft(record ?? { url: null }, baseUrls ?? []), [record, baseUrls]);
  const [attempted, setAttempted] = useState(false);
  const stepsRef = useRef<HTMLDivElement>(null);
  const text = edited ?? draft.text;
  const check = checkLoginSteps(text);
  const showError = (attempted || edited !== null) && check.error !== null;
  const usesPassword = text.includes(PASSWORD_PLACEHOLDER);
  const secretMissing =
    usesPassword && project?.secrets != null && !project.secrets.includes(PASSWORD_SECRET);
  const lineCount = text.split('\n').length;
  const projectLink = (label: string) =>
    projectId ? (
      <Link
        to={projects.projectHref(projectId)}
        className="font-semibold text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
      >
        {label}
      </Link>
    ) : (
      label
    );

  const submit = async () => {
    setAttempted(true);
    if (!check.steps) {
      stepsRef.current?.querySelector('textarea')?.focus();
      return;
    }
    if (!project) return;
    try {
      await login.saveLogin(check.steps);
      toast.success(`Login saved to ${project.name}`);
      onSaved(project.name, secretMissing);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };

  if (draft.empty && edited === null) {
    return (
      <p className="text-sm text-slate-700" data-testid="login-no-steps">
        This conversation has no browser actions yet: ask the assistant to sign in first.
      </p>
    );
  }

  return (
    <form
      className="space-y-4"
      aria-label="Login steps"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div ref={stepsRef}>
        <TextAreaField
          label="Sign-in steps"
          rows={Math.min(Math.max(lineCount + 1, 5), 12)}
          spellCheck={false}
          autoCapitalize="off"
          inputClassName="font-mono text-xs leading-relaxed"
          value={text}
          onChange={(event) => onEdit(event.target.value)}
          error={showError ? (check.error ?? undefined) : undefined}
          hint="One step a line, in the step language. {{NAME}} types a variable or secret of the project."
          data-testid="login-steps"
        >
          {draft.passwordReplaced && usesPassword && (
            <p
              className="mt-2 flex items-start gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-xs text-emerald-900 ring-1 ring-emerald-200"
              data-testid="password-replaced"
            >
              <ShieldCheck className="mt-px size-3.5 shrink-0" aria-hidden />
              <span>
                The password you typed is not kept: the login uses {PASSWORD_PLACEHOLDER}, a secret of the
                project.
              </span>
            </p>
          )}
        </TextAreaField>
      </div>

      {secretMissing && project && (
        <p
          className="flex items-start gap-2 text-xs text-amber-900"
          role="note"
          data-testid="password-secret-missing"
        >
          <AlertTriangle className="mt-px size-3.5 shrink-0" aria-hidden />
          <span>
            {project.name} has no secret {PASSWORD_SECRET} yet: add it in{' '}
            {projectLink('Variables and secrets')} before the next run.
          </span>
        </p>
      )}

      <p className="flex items-start gap-2 text-xs text-slate-600" data-testid="secrets-hint">
        <KeyRound className="mt-px size-3.5 shrink-0 text-slate-500" aria-hidden />
        <span>
          Typed anything else that should stay private (a username, an account number)? Write it as{' '}
          <code className="rounded bg-slate-100 px-1 font-mono text-slate-800">{'{{NAME}}'}</code> of a
          secret, and give the secret its value in the project's{' '}
          {projectLink(projectId ? 'Variables and secrets' : 'Variables and secrets (choose a project)')}.
        </span>
      </p>

      {project && project.loginMode !== 'none' && (
        <p className="text-xs text-slate-600" data-testid="login-replaces">
          This replaces {project.name}'s current login ({LOGIN_MODE_TEXT[project.loginMode]}).
        </p>
      )}
      {login.failed && (
        <p className="text-sm text-red-700" role="alert">
          This project could not be loaded.
        </p>
      )}

      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-4">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={!project || login.saving} data-testid="save-login">
          {login.saving && <Loader2 className="size-4 animate-spin" aria-hidden />}
          Save login
        </Button>
      </div>
    </form>
  );
}
