import type { ProjectLogin } from '@argus/protocol';

/** How a project's runs sign in, lane by lane, as the Login panel says it. */
export interface AccountsMode {
  /** Accounts in the numbered pool (0: none, the login's own variables are the one account). */
  pool: number;
  /** The pool's username variables, in order (`EMAIL_1`, `EMAIL_2`, …). */
  usernames: string[];
  /** One or two sentences: which mode, and why it matters to a generated suite. */
  text: string;
}

/**
 * The account pool a credentials login has among the project's variable names, as the engine reads
 * it (packages/engine/src/sign-in-accounts.ts): `<username>_1` with `<password>_1` (and `<totp>_1`
 * when the login asks a code), `_2`, … from 1 with no gap. Null for a login that is not credentials.
 */
export function accountsMode(login: ProjectLogin, names: readonly string[]): AccountsMode | null {
  if (login.mode !== 'credentials') return null;
  const known = new Set(names);
  const wanted = [
    login.username_variable,
    login.password_secret,
    ...(login.totp_secret ? [login.totp_secret] : []),
  ];
  const usernames: string[] = [];
  for (let n = 1; wanted.every((name) => known.has(`${name}_${n}`)); n++)
    usernames.push(`${login.username_variable}_${n}`);
  const user = login.username_variable;
  const pass = login.password_secret;
  if (usernames.length >= 2)
    return {
      pool: usernames.length,
      usernames,
      text:
        `Account pool: ${usernames.length} accounts (${usernames[0]} … ${usernames.at(-1)}). Each parallel lane of a run signs in with an account of its own while there are enough for the run's lanes (AUTOMATION_PARALLELISM), ` +
        'so a case’s data is its own and generated suites check counts and totals against the rows they count.',
    };
  return {
    pool: usernames.length,
    usernames,
    text:
      'One account: each parallel lane of a run signs in on a session of its own, but the lanes share this account’s data, so generated suites do not check counts or totals. ' +
      `For an account per lane, add ${user}_1 and ${pass}_1, ${user}_2 and ${pass}_2, and so on.`,
  };
}
