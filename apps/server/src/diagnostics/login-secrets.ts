import { totpCodesBetween } from '@argus/engine';
import type { WorkTarget } from '../automation/project-target';

/**
 * What a case's trace must not hold besides the variables' secrets (docs/DIAGNOSTICS.md): the project
 * login's password (each account's, with a pool) even when it is kept as a plain variable, and the TOTP
 * codes a sign-in may have typed while the case ran (a session renewed mid-case signs in again). The
 * engine replaces each value by `{{NAME}}` (RunTestOptions.extraSecrets).
 */

/** `name`, or one of its numbered accounts' (`PASSWORD_2`: packages/engine/src/sign-in-accounts.ts). */
const isAccountOf = (name: string, base: string) =>
  name === base || (name.startsWith(`${base}_`) && /^\d+$/.test(name.slice(base.length + 1)));

/**
 * The login's secrets for one attempt, made when the engine asks (as the attempt ends): its passwords,
 * its TOTP secrets and every code they gave from a period before `loginSecrets` was called (the attempt's
 * start) to a period after the ask. Undefined without a credentials login.
 */
export function loginSecrets(
  target: Pick<WorkTarget, 'plan' | 'variables'> | null,
  now: () => number = Date.now,
): (() => Record<string, string>) | undefined {
  const plan = target?.plan;
  if (!target || plan?.mode !== 'credentials') return undefined;
  const since = now();
  return () => {
    const secrets: Record<string, string> = {};
    for (const [name, { value }] of target.variables.values) {
      if (!value) continue;
      if (isAccountOf(name, plan.password)) secrets[name] = value;
      if (plan.totp && isAccountOf(name, plan.totp)) {
        secrets[name] = value;
        totpCodes(value, since, now()).forEach((code, i) => {
          secrets[`${name}_CODE_${i + 1}`] = code;
        });
      }
    }
    return secrets;
  };
}

/** The codes of every period from the one before `from` to the one after `to` (RFC 6238, at most 240). */
export const totpCodes = totpCodesBetween;
