import type { Environment, Project, TestMode } from '@argus/protocol';
import {
  type Dispatch,
  type SetStateAction,
  useCallback,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import type { AutomationStore } from '../model/automation-store';
import { isBusy } from '../model/execution';
import {
  isResolving,
  NO_PROJECT_STATE,
  type ProjectSelection,
  projectChoiceReducer,
  rebaseUrl,
  resolveTarget,
  urlProblem,
} from '../model/project-target';

/** Said when work would start while the chosen project still loads. */
const PROJECT_LOADING = 'The project is still loading. Try again in a moment.';

/**
 * The project environment the work runs on (docs/PROJECTS.md), or none: a bare URL. Choosing an
 * environment puts its address in the URL, keeping a path typed on the previous one's.
 */
function useProjectChoice(setUrl: Dispatch<SetStateAction<string>>) {
  const [projectChoice, dispatchProject] = useReducer(projectChoiceReducer, NO_PROJECT_STATE);
  const target = useMemo(() => resolveTarget(projectChoice), [projectChoice]);
  const projectResolving = isResolving(projectChoice);
  const latestChoice = useRef(projectChoice);
  latestChoice.current = projectChoice;

  /** The picker: a project (its environment follows once it loads), an environment, or none. */
  const chooseProject = useCallback(
    (selection: ProjectSelection, choice: { project: Project; environment: Environment } | null) => {
      const before = resolveTarget(latestChoice.current);
      dispatchProject({ type: 'choose', selection, project: choice?.project ?? null });
      if (choice)
        setUrl((current) => rebaseUrl(current, before?.baseUrl ?? null, choice.environment.base_url));
    },
    [setUrl],
  );

  /** The chosen project as loaded now; null once it no longer exists (the choice goes back to none). */
  const projectLoaded = useCallback((projectId: string, project: Project | null) => {
    dispatchProject({ type: 'loaded', projectId, project });
  }, []);

  /** Why work on `workUrl` cannot start in the chosen project environment, or null. */
  const projectProblem = useCallback(
    (workUrl: string): string | null => (projectResolving ? PROJECT_LOADING : urlProblem(workUrl, target)),
    [projectResolving, target],
  );

  return {
    projectChoice,
    dispatchProject,
    target,
    projectResolving,
    chooseProject,
    projectLoaded,
    projectProblem,
  };
}

/** The screen's inputs: mode, URL, command, Retries choice and project environment. */
export function useAutomationInputs(store: AutomationStore) {
  const [mode, setModeState] = useState<TestMode>('full');
  const [url, setUrl] = useState('');
  const [command, setCommand] = useState('');
  const [retries, setRetriesState] = useState(0);
  const project = useProjectChoice(setUrl);

  /** docs/PRODUCT.md#execution-states: the mode cannot change while generating or running. */
  const setMode = useCallback(
    (next: TestMode) => {
      if (isBusy(store.getState().status)) return;
      setModeState(next);
    },
    [store],
  );

  return { mode, setMode, setModeState, url, setUrl, command, setCommand, retries, setRetriesState, project };
}

export type AutomationInputs = ReturnType<typeof useAutomationInputs>;
