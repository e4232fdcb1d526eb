import { poolBrowsers, type SuiteBrowsers } from '@argus/ai';
import { SignedInSessions, SignInError } from '@argus/engine';
import { signInFailedMessage } from '@argus/protocol';
import { AppError } from '../errors';
import type { AutomationDeps, Progress } from './automation-deps';
import type { WorkTarget } from './project-target';

/** Says a failed sign-in (`message`, with what the page showed in `error`) wherever the work reports. */
export type SignInFailure = (message: string, error: SignInError) => Promise<void>;

/**
 * Signs in to the target (nothing to do without a login): sessions that start signed in for the work's
 * exploring and tests (docs/PROJECTS.md#sites-behind-a-login). Null, once `fail` has said why, when
 * signing in failed.
 */
export async function signIn(
  deps: Pick<AutomationDeps, 'sessions' | 'log'>,
  target: WorkTarget,
  signal: AbortSignal,
  progress: Progress,
  fail: SignInFailure,
): Promise<SignedInSessions | null> {
  if (!deps.sessions) throw new AppError('NOT_IMPLEMENTED', 'Projects are not available on this server');
  const sessions = new SignedInSessions(deps.sessions, target.plan, {
    baseUrl: target.environment.base_url,
    variables: target.variables,
    viewport: target.viewport,
    signal,
  });
  if (target.plan) progress(`Signing in to ${target.label}`);
  try {
    await sessions.start();
  } catch (error) {
    if (!(error instanceof SignInError) || signal.aborted) throw error;
    const message = signInFailedMessage(target.project.name, target.environment.name, error.message);
    deps.log.info({ project: target.project.id, environment: target.environment.id }, 'sign-in failed');
    await fail(message, error);
    return null;
  }
  if (target.plan) progress(`Signed in to ${target.label}`);
  return sessions;
}

/** A generation's browser work over sessions that start signed in; null when signing in failed. */
export async function signedInBrowsers(
  deps: Pick<AutomationDeps, 'sessions' | 'log'>,
  target: WorkTarget,
  signal: AbortSignal,
  progress: Progress,
  fail: SignInFailure,
): Promise<SuiteBrowsers | null> {
  const sessions = await signIn(deps, target, signal, progress, fail);
  return sessions ? poolBrowsers(sessions) : null;
}
