import type { SignInPlan } from './sign-in';
import type { StepVariables } from './variables';

/**
 * One account a lane may sign in as: its number in the pool (null for the login's plain variables)
 * and the variables as that lane's steps read them (the plain names holding this account's values).
 */
export interface SignInAccount {
  number: number | null;
  variables: StepVariables;
}

/**
 * The accounts a project login can sign in as (docs/PROJECTS.md#an-account-per-lane). A credentials
 * login names its variables (`EMAIL`, `PASSWORD`, `TOTP`); numbered ones beside them (`EMAIL_1` and
 * `PASSWORD_1`, `EMAIL_2` and `PASSWORD_2`, …, from 1 with no gap, `TOTP_<n>` when the login asks a
 * code) are a pool, and each account's lane reads its values under the plain names, so a step's
 * `{{EMAIL}}` is the lane's own. Without numbered ones (or for a login of recorded steps) the plain
 * variables are the one account.
 */
export function signInAccounts(plan: SignInPlan | null, variables: StepVariables): SignInAccount[] {
  const one = [{ number: null, variables }];
  if (plan?.mode !== 'credentials') return one;
  const names = [plan.username, plan.password, ...(plan.totp ? [plan.totp] : [])];
  const accounts: SignInAccount[] = [];
  for (let n = 1; names.every((name) => variables.values.has(`${name}_${n}`)); n++) {
    const values = new Map(variables.values);
    for (const name of names) {
      const entry = variables.values.get(`${name}_${n}`);
      if (entry) values.set(name, entry);
    }
    accounts.push({ number: n, variables: { values, source: variables.source } });
  }
  return accounts.length > 0 ? accounts : one;
}

/** How a signed-in project's lanes share data, in words for the run log and the project page. */
export function accountsMode(accounts: number, lanes: number): { own: boolean; text: string } {
  if (accounts >= lanes && accounts > 1)
    return {
      own: true,
      text: `${accounts} accounts for ${lanes} lane${lanes === 1 ? '' : 's'}: each lane signs in with an account of its own, so a case's data is its own`,
    };
  if (accounts > 1)
    return {
      own: false,
      text: `${accounts} accounts for ${lanes} lanes: some lanes share an account (each with a session of its own), so counts and totals are not checked`,
    };
  return {
    own: false,
    text: 'one account: each lane signs in with it on a session of its own; lanes share its data, so counts and totals are not checked',
  };
}
