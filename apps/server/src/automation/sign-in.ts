import { poolBrowsers, type SuiteBrowsers } from '@argus/ai';
import { accountsMode, type LaneSignIn, SignInError, SignInLanes } from '@argus/engine';
import { signInFailedMessage } from '@argus/protocol';
import { AppError } from '../errors';
import type { AutomationDeps, Progress } from './automation-deps';
import type { WorkTarget } from './project-target';

/** Says a failed sign-in (`message`, with what the page showed in `error`) wherever the work reports. */
export type SignInFailure = (message: string, error: SignInError) => Promise<void>;

export interface SignInReport {
  /** Sessions open at once (a run's browsers, an exploration's replays): one lane, one sign-in, each. */
  lanes: number;
  /** Something for the work's log to keep (how lanes share accounts, each lane's sign-in and its cost). */
  note?: (line: string, level?: 'info' | 'warn') => void;
}

/**
 * Signs in to the target (nothing to do without a login): sessions that start signed in for the work's
 * exploring and tests, a lane of its own for each session open at once, each lane signed in on its
 * own with an account of its own when the login has a pool (docs/PROJECTS.md#sites-behind-a-login).
 * The first lane signs in here (a wrong password stops the work before it starts); the others as
 * they are first needed. Null, once `fail` has said why, when signing in failed.
 */
export async function signIn(
  deps: Pick<AutomationDeps, 'sessions' | 'log'>,
  target: WorkTarget,
  signal: AbortSignal,
  progress: Progress,
  fail: SignInFailure,
  report: SignInReport,
): Promise<SignInLanes | null> {
  if (!deps.sessions) throw new AppError('NOT_IMPLEMENTED', 'Projects are not available on this server');
  const note = (line: string, level: 'info' | 'warn' = 'info') => {
    progress(line);
    report.note?.(line, level);
  };
  const lanes = new SignInLanes(deps.sessions, target.plan, {
    baseUrl: target.environment.base_url,
    variables: target.variables,
    viewport: target.viewport,
    signal,
    maxLanes: report.lanes,
    onSignedIn: (s) => note(laneSignedIn(target, s)),
    onLaneFailed: (lane, error) =>
      note(`Lane ${lane} could not sign in (${error.message}); its cases run in the lanes that did`, 'warn'),
  });
  if (!target.plan) return lanes;
  note(`Signing in to ${target.label}: ${accountsMode(lanes.accounts.length, report.lanes).text}`);
  try {
    await lanes.start();
  } catch (error) {
    if (!(error instanceof SignInError) || signal.aborted) throw error;
    const message = signInFailedMessage(target.project.name, target.environment.name, error.message);
    deps.log.info({ project: target.project.id, environment: target.environment.id }, 'sign-in failed');
    await fail(message, error);
    return null;
  }
  return lanes;
}

/** A lane's sign-in as the log says it: `Signed in to Shop (staging), lane 2 with account 2, in 1.4 s`. */
function laneSignedIn(target: WorkTarget, { lane, account, ms }: LaneSignIn): string {
  const who = account === null ? '' : ` with account ${account}`;
  return `Signed in to ${target.label}, lane ${lane}${who}, in ${(ms / 1000).toFixed(1)} s`;
}

/**
 * A generation's browser work over sessions that start signed in, a lane per replay at once; null
 * when signing in failed. `ownData`: each lane has an account of its own (exact counts may be checked).
 */
export async function signedInBrowsers(
  deps: Pick<AutomationDeps, 'sessions' | 'log'>,
  target: WorkTarget,
  signal: AbortSignal,
  progress: Progress,
  fail: SignInFailure,
  lanes: number,
): Promise<{ browsers: SuiteBrowsers; ownData: boolean } | null> {
  const sessions = await signIn(deps, target, signal, progress, fail, { lanes });
  if (!sessions) return null;
  return { browsers: poolBrowsers(sessions), ownData: accountsMode(sessions.accounts.length, lanes).own };
}
