import { z } from 'zod';

/**
 * One catalogue of coded errors with their HTTP status, used by REST answers and WebSocket `error`
 * messages alike. `detail` is the default text; a thrower may give a more specific one.
 */
export const ERRORS = {
  BAD_REQUEST: { status: 400, detail: 'Bad request' },
  MALFORMED_JSON: { status: 400, detail: 'Request body is not valid JSON' },
  BODY_TOO_DEEP: { status: 400, detail: 'Request body is nested too deeply' },
  VALIDATION: { status: 422, detail: 'Validation error' },
  UNAUTHENTICATED: { status: 401, detail: 'Not authenticated' },
  INVALID_CREDENTIALS: { status: 401, detail: 'Incorrect username or password' },
  INVALID_TOKEN: { status: 401, detail: 'Could not validate credentials' },
  WRONG_PASSWORD: { status: 400, detail: 'Current password is incorrect' },
  FORBIDDEN: { status: 403, detail: 'Forbidden' },
  /** An API token whose scope does not cover the request (a read token starting a run). */
  TOKEN_SCOPE: { status: 403, detail: "This API token's scope does not allow this request" },
  /** The caller's role in the organization does not allow the request; the text names the role needed. */
  FORBIDDEN_ROLE: { status: 403, detail: 'Your role in this organization does not allow this' },
  /** An organization requires SSO for its members: a password sign-in is refused (the text says which). */
  SSO_REQUIRED: { status: 403, detail: 'Your organization requires single sign-on' },
  /** REGISTRATION=closed: accounts are made by an administrator (`npm run user:add`). */
  REGISTRATION_CLOSED: {
    status: 403,
    detail: 'Registration is closed on this server. Ask an administrator for an account.',
  },
  /** Single sign-on is asked for on a server without OIDC_ISSUER and the rest (docs/SSO.md). */
  SSO_NOT_CONFIGURED: { status: 404, detail: 'Single sign-on is not configured on this server' },
  /**
   * A provider's answer naming a sign-in this server does not hold: unknown, already used, expired, or
   * started in another browser (its cookie is missing or differs).
   */
  SSO_STATE_INVALID: {
    status: 400,
    detail: 'This sign-in has expired or was already used. Start the sign-in again.',
  },
  /** The provider answered the sign-in with an error of its own (access_denied, …). */
  SSO_PROVIDER_DENIED: { status: 403, detail: 'The identity provider did not sign you in' },
  /** The provider's discovery, keys or token endpoint could not be reached or answered in error. */
  SSO_PROVIDER_UNAVAILABLE: {
    status: 502,
    detail: 'The identity provider could not be reached or did not answer as expected',
  },
  /** The ID token's `aud` does not name OIDC_CLIENT_ID. */
  SSO_ID_TOKEN_AUDIENCE: {
    status: 401,
    detail: "The identity provider's token was issued for another application",
  },
  /** The ID token's `exp` has passed. */
  SSO_ID_TOKEN_EXPIRED: { status: 401, detail: "The identity provider's token has expired" },
  /** The ID token is not signed by a key of the provider's JWKS. */
  SSO_ID_TOKEN_SIGNATURE: {
    status: 401,
    detail: "The identity provider's token is not signed with the provider's keys",
  },
  /** Any other check of the ID token failed (issuer, nonce, times, missing claims). */
  SSO_ID_TOKEN_INVALID: { status: 401, detail: "The identity provider's token could not be verified" },
  /** A first sign-in without an email the provider marks verified: no account can be found or made. */
  SSO_EMAIL_UNVERIFIED: {
    status: 403,
    detail:
      'Your identity provider did not give a verified email address, so no Argus account could be found or made for you',
  },
  /** POST /api/auth/sso/exchange without a valid one-time code (used, expired, or none). */
  SSO_HANDOFF_INVALID: {
    status: 401,
    detail: 'This single sign-on has expired or was already completed. Sign in again.',
  },
  /** A signed link (a screenshot's image) with a wrong signature, or past its expiry. */
  LINK_INVALID: { status: 403, detail: 'This link is invalid or has expired' },
  NOT_FOUND: { status: 404, detail: 'Not found' },
  /** An API token that does not exist or is another user's. */
  TOKEN_NOT_FOUND: { status: 404, detail: 'API token not found' },
  /** A session that does not exist or is another user's: the two are indistinguishable. */
  SESSION_NOT_FOUND: { status: 404, detail: 'Session not found' },
  /** A test run that does not exist or is another user's. */
  TEST_RUN_NOT_FOUND: { status: 404, detail: 'Test run not found' },
  /** An organization that does not exist or that the caller is not a member of: the two read alike. */
  ORGANIZATION_NOT_FOUND: { status: 404, detail: 'Organization not found' },
  /** A member of the organization that is not one (or never was). */
  MEMBER_NOT_FOUND: { status: 404, detail: 'Member not found' },
  /** An invitation of another organization's, or none. */
  INVITATION_NOT_FOUND: { status: 404, detail: 'Invitation not found' },
  /** An invitation link that was revoked, already used or is past its expiry; the text says which. */
  INVITATION_INVALID: { status: 410, detail: 'This invitation can no longer be used' },
  /** A change that would leave an organization without an owner, or that a personal one cannot take. */
  ORGANIZATION_CONFLICT: { status: 409, detail: 'An organization must keep at least one owner' },
  /** A project (or its environment, variable or saved suite) that does not exist or is another user's. */
  PROJECT_NOT_FOUND: { status: 404, detail: 'Project not found' },
  ENVIRONMENT_NOT_FOUND: { status: 404, detail: 'Environment not found' },
  VARIABLE_NOT_FOUND: { status: 404, detail: 'Variable not found' },
  SUITE_NOT_FOUND: { status: 404, detail: 'Saved suite not found' },
  /** A repair or a suite comparison that does not exist or is another organization's (docs/REPAIRS.md). */
  REPAIR_NOT_FOUND: { status: 404, detail: 'Repair not found' },
  COMPARISON_NOT_FOUND: { status: 404, detail: 'Suite comparison not found' },
  /**
   * A repair that cannot be approved or rejected as asked: already decided, superseded, a `bug`, or a
   * `weakens` proposal not named in `accept_weakening` (the text says which).
   */
  REPAIR_CONFLICT: { status: 409, detail: 'This repair cannot be decided now' },
  /** A run's visual check or a baseline that does not exist or is another organization's (docs/VISUAL-CHECKS.md). */
  VISUAL_CHECK_NOT_FOUND: { status: 404, detail: 'Visual check not found' },
  BASELINE_NOT_FOUND: { status: 404, detail: 'Baseline not found' },
  /** A visual check already approved or rejected (by another reviewer, a moment ago), or with nothing to review. */
  VISUAL_REVIEW_CONFLICT: { status: 409, detail: 'This visual check has no review waiting' },
  /** A project's schedule or webhook that does not exist or is another user's (docs/SCHEDULES.md). */
  SCHEDULE_NOT_FOUND: { status: 404, detail: 'Schedule not found' },
  WEBHOOK_NOT_FOUND: { status: 404, detail: 'Webhook not found' },
  /** A saved suite changed since the editor loaded it (base_version is not the latest). */
  SUITE_VERSION_CONFLICT: {
    status: 409,
    detail: 'This suite was changed since you opened it; reload it and save again',
  },
  /** The project's login did not get Argus signed in; the text names the project and environment. */
  SIGN_IN_FAILED: { status: 502, detail: 'Sign-in failed' },
  USERNAME_TAKEN: { status: 409, detail: 'Username already registered' },
  EMAIL_TAKEN: { status: 409, detail: 'Email already registered' },
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'Request body is too large' },
  BODY_TOO_MANY_VALUES: { status: 413, detail: 'Request body holds too many values' },
  /** MAX_STORED_BYTES_PER_USER: the screenshots a user keeps would pass the quota. */
  STORAGE_QUOTA_EXCEEDED: { status: 413, detail: 'Your storage quota is used up' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, detail: 'Unsupported content type' },
  /** MAX_CASES_PER_RUN: more test cases in one run than the server allows. */
  TOO_MANY_TEST_CASES: { status: 422, detail: 'Too many test cases for one run' },
  /** MAX_STEPS_PER_CASE: a test case with more steps than the server allows. */
  TOO_MANY_STEPS: { status: 422, detail: 'A test case has too many steps' },
  RATE_LIMITED: { status: 429, detail: 'Too many attempts. Please try again later.' },
  /** MAX_BROWSERS_PER_USER: the user's work already holds every browser it may. */
  BROWSER_LIMIT_REACHED: { status: 429, detail: 'All the browsers you may use are busy' },
  /** One 'Test connection' at a time per user: another is refused while one is waiting for its model. */
  CONNECTION_TEST_BUSY: {
    status: 409,
    detail:
      'A connection test is already under way for your account; wait for its answer before starting another.',
  },
  /**
   * A design comparison that would measure more pixels than the server allows (one viewport, or all of
   * them together: COMPARISON_MAX_PIXELS), or a design or Figma render too large to compare.
   */
  COMPARISON_TOO_LARGE: { status: 422, detail: 'The comparison is larger than this server compares' },
  /** A design upload or comparison of the user's is still being processed: one at a time per user. */
  COMPARISON_BUSY: { status: 429, detail: 'Your previous upload is still being processed' },
  /** A generation that could not finish (the site did not load, the planner failed); the text says why. */
  GENERATION_FAILED: { status: 502, detail: 'Test cases could not be generated' },
  /**
   * A request's database work ran past DATABASE_STATEMENT_TIMEOUT_MS and was cancelled (docs/HISTORY.md#limits);
   * the text names the limit. The same request may be tried again, or over less (a shorter range).
   */
  STATEMENT_TIMEOUT: {
    status: 503,
    detail: 'The request took longer than the database allows and was cancelled',
  },
  /**
   * HEAVY_REQUESTS_PER_USER: the user already has that many heavy requests (analytics, exports) under
   * way; another is refused at once (with Retry-After) rather than queued behind them.
   */
  TOO_MANY_HEAVY_REQUESTS: {
    status: 429,
    detail: 'You already have as many analytics or export requests under way as the server allows',
  },
  /** The request's client went away before its answer: its database work was cancelled (nginx's 499). */
  REQUEST_CANCELLED: { status: 499, detail: 'The request was cancelled: its client went away' },
  NOT_IMPLEMENTED: { status: 501, detail: 'Not available in this version' },
  INTERNAL: { status: 500, detail: 'Internal server error' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** Every code of the catalogue, in its order. */
export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** A `code` in an HTTP error answer or a socket `error` message: one of the catalogue's keys. */
export const ErrorCodeSchema = z.enum(ERROR_CODES);
