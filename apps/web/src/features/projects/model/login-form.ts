import { type ProjectLogin, ProjectLoginSchema, parseStep, variablesIn } from '@argus/protocol';
import { fieldIssues, firstByField } from './issues';

export type LoginMode = ProjectLogin['mode'];

/** The Login panel's form, one set of fields per mode (switching modes keeps what was typed). */
export interface LoginValues {
  mode: LoginMode;
  loginUrl: string;
  usernameVariable: string;
  passwordSecret: string;
  /** '' for none. */
  totpSecret: string;
  /** One step per line. */
  steps: string;
}

export interface LoginErrors {
  loginUrl?: string;
  usernameVariable?: string;
  passwordSecret?: string;
  totpSecret?: string;
  steps?: string;
}

export function loginValuesFrom(login: ProjectLogin): LoginValues {
  return {
    mode: login.mode,
    loginUrl: login.mode === 'credentials' ? login.login_url : '',
    usernameVariable: login.mode === 'credentials' ? login.username_variable : '',
    passwordSecret: login.mode === 'credentials' ? login.password_secret : '',
    totpSecret: login.mode === 'credentials' ? (login.totp_secret ?? '') : '',
    steps: login.mode === 'steps' ? login.steps.join('\n') : '',
  };
}

/** The typed steps: lines trimmed, blank ones dropped, with their line numbers. */
export function loginStepLines(text: string): Array<{ line: number; text: string }> {
  return text
    .split(/\r?\n/)
    .map((raw, index) => ({ line: index + 1, text: raw.trim() }))
    .filter((entry) => entry.text.length > 0);
}

function stepProblem(text: string): boolean {
  try {
    parseStep(text);
    return false;
  } catch {
    return true;
  }
}

/** The login the form stands for, as the project stores it. */
export function loginFromValues(values: LoginValues): ProjectLogin {
  if (values.mode === 'none') return { mode: 'none' };
  if (values.mode === 'steps')
    return { mode: 'steps', steps: loginStepLines(values.steps).map((l) => l.text) };
  return {
    mode: 'credentials',
    login_url: values.loginUrl.trim(),
    username_variable: values.usernameVariable,
    password_secret: values.passwordSecret,
    totp_secret: values.totpSecret || null,
  };
}

const WIRE_FIELDS = [
  ['login_url', 'loginUrl'],
  ['username_variable', 'usernameVariable'],
  ['password_secret', 'passwordSecret'],
  ['totp_secret', 'totpSecret'],
  ['steps', 'steps'],
] as const;

const REQUIRED: Record<string, string> = {
  login_url: "Enter the sign-in page's address, e.g. /login",
  username_variable: 'Choose the variable that holds the username',
  password_secret: 'Choose the secret that holds the password',
};

/**
 * Checks the form with the shared schema, and each step with the engine's own parser
 * (docs/STEP-LANGUAGE.md): the login to save, or the problems by field.
 */
export function checkLogin(
  values: LoginValues,
): { login: ProjectLogin; errors: null } | { login: null; errors: LoginErrors } {
  const login = loginFromValues(values);
  const errors: LoginErrors = {};
  const parsed = ProjectLoginSchema.safeParse(login);
  if (!parsed.success) {
    const byField = firstByField(fieldIssues(parsed.error.issues));
    for (const [wire, field] of WIRE_FIELDS) {
      if (!byField[wire]) continue;
      errors[field] = values[field].trim() === '' && REQUIRED[wire] ? REQUIRED[wire] : byField[wire];
    }
  }
  if (values.mode === 'steps') {
    const lines = loginStepLines(values.steps);
    const bad = lines.filter((entry) => stepProblem(entry.text));
    if (lines.length === 0) errors.steps = 'Write at least one step';
    else if (bad.length > 0)
      errors.steps = `${bad.length === 1 ? 'Line' : 'Lines'} ${bad.map((b) => b.line).join(', ')} ${
        bad.length === 1 ? 'is' : 'are'
      } not in the step language, e.g. Fill "Email" with "{{USERNAME}}"`;
    else if (lines.length > 50) errors.steps = 'A login can have at most 50 steps';
  }
  if (Object.values(errors).some(Boolean)) return { login: null, errors };
  return { login: parsed.success ? parsed.data : login, errors: null };
}

/** The names a login refers to that the project does not define (yet): worth a warning, not a refusal. */
export function undefinedReferences(values: LoginValues, defined: readonly string[]): string[] {
  const known = new Set(defined);
  let used: string[] = [];
  if (values.mode === 'credentials')
    used = [values.usernameVariable, values.passwordSecret, values.totpSecret].filter(Boolean);
  else if (values.mode === 'steps') used = variablesIn(values.steps);
  return [...new Set(used)].filter((name) => !known.has(name));
}

/** One line saying how Argus signs in, for the panel's subtitle. */
export function loginSummary(login: ProjectLogin): string {
  if (login.mode === 'none') return 'Argus starts signed out';
  if (login.mode === 'steps')
    return `Signs in with ${login.steps.length} recorded ${login.steps.length === 1 ? 'step' : 'steps'}`;
  return `Signs in at ${login.login_url} as {{${login.username_variable}}}${login.totp_secret ? ', with a two-factor code' : ''}`;
}
