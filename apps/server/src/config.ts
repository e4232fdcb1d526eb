import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type PlannerProvider, plannerProvider } from '@argus/ai';
import {
  bool,
  checkServerModel,
  httpUrl,
  int,
  parseModelPrices,
  parseRegistration,
  parseTrustProxy,
  redisUrl,
  smtpUrl,
  type TrustProxy,
  usd,
} from './config-values';
import { type RetentionPace, retentionPace } from './retention/retention-pace';
import { type OidcConfig, parseOidcConfig } from './sso/oidc-config';

export { parseModelPrices, parseRegistration, parseTrustProxy, type TrustProxy };

/** Everything the server reads from its environment (docs/DECISIONS.md#configuration). A `.env` file is read too. */
export interface Config {
  /** @default 8080 */
  port: number;
  /** @default '127.0.0.1' */
  host: string;
  /** Embedded database, blobs and generated secrets. @default './data' */
  dataDir: string;
  /** PostgreSQL instead of the embedded database. @default undefined */
  databaseUrl?: string;
  /**
   * Redis (REDIS_URL): automation work becomes BullMQ jobs that `npm run worker` processes take, and
   * messages reach users through Redis pub/sub (docs/DEPLOYMENT.md). Needs DATABASE_URL. @default undefined
   */
  redisUrl?: string;
  /**
   * How long a worker's hold on a job lasts unrenewed (WORKER_LOCK_MS): a job whose worker died is taken
   * up by another within about twice this (docs/DEPLOYMENT.md#how-work-flows). @default 30000
   */
  workerLockMs: number;
  /**
   * How long a statement waits out an unreachable PostgreSQL (DATABASE_RETRY_MS) before it fails; 0 fails
   * at once (docs/DEPLOYMENT.md#postgresql). @default 30000
   */
  databaseRetryMs: number;
  /**
   * How long the database work of one API read may take (DATABASE_STATEMENT_TIMEOUT_MS; 0 no limit): a
   * statement still running then is cancelled and the request answered 503 STATEMENT_TIMEOUT naming
   * the limit (docs/HISTORY.md#limits). @default 15000
   */
  databaseStatementTimeoutMs: number;
  /**
   * Heavy requests (analytics, exports) one user may have under way at once (HEAVY_REQUESTS_PER_USER,
   * at least 1); another answers 429 TOO_MANY_HEAVY_REQUESTS. Counted across web processes with
   * REDIS_URL. @default 2
   */
  heavyRequestsPerUser: number;
  /** Token signing secret; generated once and kept in DATA_DIR when unset. */
  jwtSecret?: string;
  /** Lifetime of an access token. @default 86400 (24 h) */
  tokenTtlSeconds: number;
  /** Lifetime of a signed screenshot link (SIGNED_URL_TTL_SECONDS, at least 1). @default 600 (10 min) */
  signedUrlTtlSeconds: number;
  /** @default 'info' ('warn' under NODE_ENV=test) */
  logLevel: string;
  /** Built web app served at /. @default 'apps/web/dist' */
  webDist: string;
  /** Failed logins allowed per username per window before 429. @default 10 */
  loginFailuresPerUser: number;
  /** Login attempts allowed per IP per window before 429. @default 30 */
  loginAttemptsPerIp: number;
  /** Registrations allowed per IP per window. @default 20 */
  registrationsPerIp: number;
  /**
   * REGISTRATION: 'open' lets anyone register; 'closed' answers POST /api/auth/register with 403
   * REGISTRATION_CLOSED, and accounts are made with `npm run user:add`. @default 'open'
   */
  registration: 'open' | 'closed';
  /**
   * Single sign-on with OpenID Connect (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URL,
   * and OIDC_NAME for the login page's button; sso/oidc-config.ts, docs/SSO.md): the four together or
   * none, a partial set stops the server naming what is missing; the secret is never logged.
   * @default undefined (off)
   */
  oidc?: OidcConfig;
  /**
   * Where users reach the server (PUBLIC_URL, e.g. https://argus.example.com): whole invitation links
   * are made with it. Unset: the request's own origin. @default undefined
   */
  publicUrl?: string;
  /** Invitations are also emailed through this server (SMTP_URL, smtp:// or smtps://). @default undefined (not mailed) */
  smtpUrl?: string;
  /** The sender of those mails (MAIL_FROM). @default 'Argus <argus@localhost>' */
  mailFrom: string;
  /** Page-unload beacons (POST /cleanup) allowed per IP per window. @default 120 */
  cleanupRequestsPerIp: number;
  /** Window of the limits above, in seconds. @default 900 */
  rateLimitWindowSeconds: number;
  /**
   * Fastify's `trustProxy` (TRUST_PROXY): `true`, a hop count, or addresses/CIDRs of the reverse proxies
   * whose X-Forwarded-For is believed, so rate limits see real client addresses. @default false
   */
  trustProxy: TrustProxy;
  /** Largest JSON or form body accepted, in bytes. @default 1048576 */
  bodyLimit: number;
  /** Hosts/CIDRs the browser may reach besides the public internet (ALLOWED_TARGETS, comma-separated). @default [] */
  allowedTargets: string[];
  /** @default auto-detected */
  chromiumPath?: string;
  /** A remote browser instead of a local Chromium. @default undefined */
  browserWsEndpoint?: string;
  /**
   * Where the policy proxy listens for a remote browser (POLICY_PROXY_HOST): an address of this machine
   * that browser can reach. A local browser's proxy always listens on 127.0.0.1. @default '127.0.0.1'
   */
  policyProxyHost: string;
  /** The proxy's host as the remote browser dials it (POLICY_PROXY_PUBLIC_HOST). @default policyProxyHost */
  policyProxyPublicHost?: string;
  /** Browser contexts open at once in this process. @default 4 */
  maxBrowsers: number;
  /** Tests of one run executed at once. @default 2 */
  automationParallelism: number;
  /**
   * Runs and generations one organization has going at once (ORG_MAX_CONCURRENT_RUNS, at least 1):
   * more wait their turn, told their place, and are never refused; organizations' lines take turns
   * (docs/CI.md#runs-wait-their-turn). @default 2
   */
  orgMaxConcurrentRuns: number;
  /**
   * Browser contexts one piece of a user's work may hold at once (MAX_BROWSERS_PER_USER, at least 1):
   * a run's parallel tests and a generation's browsers are capped by it; a live browser or design
   * comparison that finds all of the user's busy is refused (BROWSER_LIMIT_REACHED, naming what holds
   * them). Runs and generations are never refused: they wait their turn. @default 2
   */
  maxBrowsersPerUser: number;
  /** Test cases one run may hold (MAX_CASES_PER_RUN, at least 1); more is refused (TOO_MANY_TEST_CASES). @default 100 */
  maxCasesPerRun: number;
  /** Steps one test case may have (MAX_STEPS_PER_CASE, at least 1); more is refused (TOO_MANY_STEPS). @default 100 */
  maxStepsPerCase: number;
  /**
   * Bytes of screenshots one user may keep stored (MAX_STORED_BYTES_PER_USER); an upload past it
   * answers 413 STORAGE_QUOTA_EXCEEDED, a run is refused once it is used up, and a run that reaches
   * it stops storing screenshots (its log says so). @default 1073741824 (1 GiB)
   */
  maxStoredBytesPerUser: number;
  /**
   * Design comparisons' image work (decoding, measuring, encoding a viewport; decoding an upload) run
   * at once in this process (COMPARISON_IMAGE_CONCURRENCY, at least 1); more waits its turn. Each holds
   * up to a few hundred MB at the largest sizes. @default 2
   */
  comparisonImageConcurrency: number;
  /**
   * Pixels one design comparison may measure over all its viewports (COMPARISON_MAX_PIXELS, at least
   * 1): a long page is cut to fit; viewports whose width × height alone pass it are refused
   * (COMPARISON_TOO_LARGE), as is one viewport past 7680 × 4320. @default 66355200 (two 8K screens)
   */
  comparisonMaxPixels: number;
  /**
   * Design uploads (POST /api/uploads and the socket's upload_and_compare_image) one user may send
   * per RATE_LIMIT_WINDOW_SECONDS (UPLOADS_PER_USER); more answers 429 RATE_LIMITED. @default 60
   */
  uploadsPerUser: number;
  /** Which planner writes test cases (AI_PROVIDER; `PLANNER_PROVIDERS` in @argus/ai). @default 'builtin' */
  aiProvider: PlannerProvider;
  /**
   * The server's default model (AI_MODEL), used with AI_PROVIDER when a user's Settings name none:
   * 'gpt-4o-mini', 'claude-sonnet-4-5', 'llama3.1'… Required when AI_PROVIDER names a model provider.
   * @default undefined
   */
  aiModel?: string;
  /**
   * Where the default provider listens (AI_BASE_URL, http or https); required for openai-compatible.
   * Trusted as the administrator wrote it (a user's base URL is held to ALLOWED_TARGETS instead).
   * @default the provider's public API
   */
  aiBaseUrl?: string;
  /** The default provider's API key (AI_API_KEY). Never logged, never sent to a client. @default undefined */
  aiApiKey?: string;
  /**
   * The most one user's calls on the server's own model (AI_API_KEY) may cost a calendar month, UTC
   * (AI_SERVER_KEY_USER_MONTHLY_USD, US dollars); a user's own budget in Settings can only lower it.
   * Calls with a user's own key are not counted. @default 5
   */
  aiServerKeyUserMonthlyUsd: number;
  /** The most all users' calls on the server's own model may cost a calendar month (AI_SERVER_KEY_TOTAL_MONTHLY_USD). @default 50 */
  aiServerKeyTotalMonthlyUsd: number;
  /**
   * Prices of models the built-in list does not know (AI_MODEL_PRICES, JSON: model id → `{"input":
   * n, "output": n}`, US dollars per million tokens); they win over the list. @default {}
   */
  aiModelPrices: Record<string, { input: number; output: number }>;
  /**
   * AI_SERVER_KEY_FREE=true: the server's model costs nothing when it has no price (a self-hosted
   * one); otherwise such a model is refused on the server's key until AI_MODEL_PRICES gives its price.
   * @default false
   */
  aiServerKeyFree: boolean;
  /**
   * Key that encrypts users' API keys and Figma tokens at rest (SECRETS_KEY: 64 hex digits, the base64
   * of 32 bytes, or any passphrase, hashed). Servers sharing one database must share it.
   * @default generated once into DATA_DIR/secrets.key (mode 0600)
   */
  secretsKey?: string;
  /** The server's Figma token (FIGMA_TOKEN): used for users without their own only when figmaTokenShared. @default undefined */
  figmaToken?: string;
  /**
   * FIGMA_TOKEN_SHARED=true: users without a Figma token of their own use the server's FIGMA_TOKEN (every
   * account then reads whatever that token's Figma account can). Otherwise each user adds their own in
   * Settings before comparing with a Figma file. @default false
   */
  figmaTokenShared: boolean;
  /** Figma's REST API (FIGMA_API_BASE); tests point it at a stand-in. @default 'https://api.figma.com' */
  figmaApiBase: string;
  /** Pages the built-in generator explores. @default 10 */
  exploreMaxPages: number;
  /** Time the built-in generator explores for, in ms. @default 20000 */
  exploreTimeBudgetMs: number;
  /** Actions the built-in generator tries on the app to find behaviours (replays not counted). @default 40 */
  exploreBehaviourMaxActions: number;
  /**
   * Time the built-in generator may act on the app and replay what it found, in ms, for a page that
   * opens in 150 ms (scaled by the page's measured latency); a safety net behind the action budget.
   * @default 60000
   */
  exploreBehaviourTimeBudgetMs: number;
  /**
   * GENERATION_CHECK_RUNS: times a generated suite is run, as runs run it (in parallel, on fresh
   * sign-ins), before it is handed out; a case failing in any is dropped, and the exploration summary
   * says which and why. 0 hands the cases out unchecked. @default 2
   */
  generationCheckRuns: number;
  /** @default 10000 */
  stepTimeoutMs: number;
  /** @default 90000 */
  testTimeoutMs: number;
  /**
   * SHUTDOWN_TIMEOUT_MS: how long a stop (SIGTERM/SIGINT) may take before a watchdog thread kills the
   * process (SIGKILL), saying on standard error what was still open. @default 15000
   */
  shutdownTimeoutMs: number;
  /**
   * Live browsers (conversational mode) one user may hold at once (MAX_LIVE_BROWSERS_PER_USER, at least
   * 1); another start is refused with BROWSER_LIMIT_REACHED naming the setting. @default 1
   */
  maxLiveBrowsersPerUser: number;
  /** Live browsers the whole server holds at once (MAX_LIVE_BROWSERS, at least 1). @default maxBrowsers */
  maxLiveBrowsers: number;
  /**
   * How long a live browser outlives its user's last socket (CONVERSATION_GRACE_MS): a reconnect within
   * it resumes the stream; after it the browser is closed. @default 15000
   */
  conversationGraceMs: number;
  /**
   * A live browser without a chat message or takeover input for this long is closed
   * (CONVERSATION_IDLE_MS; 0 never). @default 600000 (10 min)
   */
  conversationIdleMs: number;
  /**
   * Where a conversation starts when the user gives no URL (CONVERSATION_START_URL; docs/PRODUCT.md#starting-a-conversation: a search
   * engine's home page). @default 'https://duckduckgo.com/'
   */
  conversationStartUrl: string;
  /**
   * A live browser is closed this long after it started, whatever the user does
   * (CONVERSATION_MAX_LIFETIME_MS; 0 never): input keeps it from idling, not forever. @default 3600000 (1 h)
   */
  conversationMaxLifetimeMs: number;
  /**
   * Takeover inputs (`browser_input`) one live browser holds waiting for the page; more are refused
   * with RATE_LIMITED naming the setting (CONVERSATION_MAX_PENDING_INPUTS, at least 1). @default 64
   */
  conversationMaxPendingInputs: number;
  /** Sockets one user may hold open at once; another is closed with 1013 (MAX_SOCKETS_PER_USER, at least 1). @default 10 */
  maxSocketsPerUser: number;
  /**
   * Sockets one client address (as TRUST_PROXY reads it) may hold open at once, authenticated or not;
   * another is closed with 1013 (MAX_SOCKETS_PER_ADDRESS, at least 1). @default 50
   */
  maxSocketsPerAddress: number;
  /**
   * Messages a socket may send a second, on average (WS_MESSAGES_PER_SECOND, at least 1); beyond it and
   * its burst a message is refused with an `error` (RATE_LIMITED). Takeover alone sends up to 30
   * pointer moves and 30 wheel turns a second, plus keys. @default 100
   */
  wsMessagesPerSecond: number;
  /**
   * Messages a socket may send at once above the rate (WS_MESSAGE_BURST, at least 1); a socket with more
   * refusals than this within 10 s is closed (1008). @default 200
   */
  wsMessageBurst: number;
  /**
   * Messages of one socket handled at once (WS_MAX_IN_FLIGHT, at least 1); more are refused with an
   * `error` (RATE_LIMITED). @default 64
   */
  wsMaxInFlight: number;
  /**
   * Bytes a socket's send buffer may hold (WS_MAX_BUFFERED_BYTES, at least 1 MiB): a client that stops
   * reading is closed (1008) once more waits. Video frames never queue (see the hub). @default 33554432 (32 MiB)
   */
  wsMaxBufferedBytes: number;
  /**
   * Whether this process runs saved suites' schedules and retries webhook deliveries
   * (SCHEDULER_ENABLED=false turns it off; docs/SCHEDULES.md). Every process sharing a database may
   * run it: each due time is claimed in the database, so it starts one run. @default true
   */
  schedulerEnabled: boolean;
  /** How often the scheduler looks for due schedules and deliveries (SCHEDULER_TICK_MS, at least 100). @default 5000 */
  schedulerTickMs: number;
  /**
   * A scheduled run that finds its user's automation busy is tried again this long after
   * (SCHEDULE_BUSY_RETRY_MS, at least 100). @default 30000 (30 s)
   */
  scheduleBusyRetryMs: number;
  /**
   * How long after its due time a scheduled run is still tried while the user is busy, before it is
   * recorded as skipped (SCHEDULE_BUSY_WINDOW_MS; the next due time ends it sooner). @default 600000 (10 min)
   */
  scheduleBusyWindowMs: number;
  /**
   * The wait before a failed webhook delivery's first retry (WEBHOOK_RETRY_BASE_MS, at least 1); each
   * further retry waits twice as long as the one before. @default 30000 (30 s, then 1, 2, 4, 8 min)
   */
  webhookRetryBaseMs: number;
  /** Attempts of one webhook delivery before it is marked failed (WEBHOOK_MAX_ATTEMPTS, at least 1). @default 6 */
  webhookMaxAttempts: number;
  /** How long one attempt waits for the receiver's answer (WEBHOOK_TIMEOUT_MS, at least 100). @default 10000 */
  webhookTimeoutMs: number;
  /**
   * Days test runs, their screenshots and design comparisons are kept (HISTORY_RETENTION_DAYS); older
   * ones are removed, rows and files together, by the retention sweep (docs/HISTORY.md#retention). A
   * run still pending or running is never removed. 0 keeps everything. @default 30
   */
  historyRetentionDays: number;
  /**
   * Days the audit log keeps a row (AUDIT_RETENTION_DAYS), separate from the history's; older rows are
   * removed by their own sweep (retention/audit-retention.ts, docs/ORGANIZATIONS.md#audit-log). 0 keeps
   * every row. @default 365
   */
  auditRetentionDays: number;
  /**
   * How often each process sweeps (RETENTION_SWEEP_INTERVAL_MS, at least 1000); the first sweep is a
   * minute after start, so starting is not slowed. @default 3600000 (1 hour)
   */
  retentionSweepIntervalMs: number;
  /** The sweep's batches, pause between them and time budget (RETENTION_BATCH_SIZE, …; retention/retention-pace.ts). */
  retentionPace: RetentionPace;
  version: string;
}

const REPO_ROOT = resolve(import.meta.dirname, '../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const version = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')).version as string;
  const port = int(env.PORT, 8080, 'PORT');
  if (port > 65535) throw new Error(`PORT must be at most 65535, got ${port}`);
  const aiProvider = plannerProvider(env.AI_PROVIDER);
  const aiModel = env.AI_MODEL?.trim() || undefined;
  const aiBaseUrl = httpUrl(env.AI_BASE_URL, 'AI_BASE_URL');
  checkServerModel(aiProvider, aiModel, aiBaseUrl);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: redisUrl(env.REDIS_URL, env.DATABASE_URL),
    workerLockMs: Math.max(1000, int(env.WORKER_LOCK_MS, 30_000, 'WORKER_LOCK_MS')),
    databaseRetryMs: int(env.DATABASE_RETRY_MS, 30_000, 'DATABASE_RETRY_MS'),
    databaseStatementTimeoutMs: int(
      env.DATABASE_STATEMENT_TIMEOUT_MS,
      15_000,
      'DATABASE_STATEMENT_TIMEOUT_MS',
    ),
    heavyRequestsPerUser: Math.max(1, int(env.HEAVY_REQUESTS_PER_USER, 2, 'HEAVY_REQUESTS_PER_USER')),
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlSeconds: int(env.TOKEN_TTL_SECONDS, 86_400, 'TOKEN_TTL_SECONDS'),
    signedUrlTtlSeconds: Math.max(1, int(env.SIGNED_URL_TTL_SECONDS, 600, 'SIGNED_URL_TTL_SECONDS')),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    webDist: resolve(env.WEB_DIST || resolve(REPO_ROOT, 'apps/web/dist')),
    loginFailuresPerUser: int(env.LOGIN_FAILURES_PER_USER, 10, 'LOGIN_FAILURES_PER_USER'),
    loginAttemptsPerIp: int(env.LOGIN_ATTEMPTS_PER_IP, 30, 'LOGIN_ATTEMPTS_PER_IP'),
    registrationsPerIp: int(env.REGISTRATIONS_PER_IP, 20, 'REGISTRATIONS_PER_IP'),
    registration: parseRegistration(env.REGISTRATION),
    oidc: parseOidcConfig(env),
    publicUrl: httpUrl(env.PUBLIC_URL, 'PUBLIC_URL'),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM?.trim() || 'Argus <argus@localhost>',
    cleanupRequestsPerIp: int(env.CLEANUP_REQUESTS_PER_IP, 120, 'CLEANUP_REQUESTS_PER_IP'),
    rateLimitWindowSeconds: int(env.RATE_LIMIT_WINDOW_SECONDS, 900, 'RATE_LIMIT_WINDOW_SECONDS'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    allowedTargets: (env.ALLOWED_TARGETS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    chromiumPath: env.CHROMIUM_PATH || undefined,
    browserWsEndpoint: env.BROWSER_WS_ENDPOINT || undefined,
    policyProxyHost: env.POLICY_PROXY_HOST || '127.0.0.1',
    policyProxyPublicHost: env.POLICY_PROXY_PUBLIC_HOST || undefined,
    maxBrowsers: Math.max(1, int(env.MAX_BROWSERS, 4, 'MAX_BROWSERS')),
    automationParallelism: Math.max(1, int(env.AUTOMATION_PARALLELISM, 2, 'AUTOMATION_PARALLELISM')),
    orgMaxConcurrentRuns: Math.max(1, int(env.ORG_MAX_CONCURRENT_RUNS, 2, 'ORG_MAX_CONCURRENT_RUNS')),
    maxBrowsersPerUser: Math.max(1, int(env.MAX_BROWSERS_PER_USER, 2, 'MAX_BROWSERS_PER_USER')),
    maxCasesPerRun: Math.max(1, int(env.MAX_CASES_PER_RUN, 100, 'MAX_CASES_PER_RUN')),
    maxStepsPerCase: Math.max(1, int(env.MAX_STEPS_PER_CASE, 100, 'MAX_STEPS_PER_CASE')),
    maxStoredBytesPerUser: int(env.MAX_STORED_BYTES_PER_USER, 1024 ** 3, 'MAX_STORED_BYTES_PER_USER'),
    comparisonImageConcurrency: Math.max(
      1,
      int(env.COMPARISON_IMAGE_CONCURRENCY, 2, 'COMPARISON_IMAGE_CONCURRENCY'),
    ),
    comparisonMaxPixels: Math.max(
      1,
      int(env.COMPARISON_MAX_PIXELS, 7680 * 4320 * 2, 'COMPARISON_MAX_PIXELS'),
    ),
    uploadsPerUser: int(env.UPLOADS_PER_USER, 60, 'UPLOADS_PER_USER'),
    aiProvider,
    aiModel,
    aiBaseUrl,
    aiApiKey: env.AI_API_KEY?.trim() || undefined,
    aiServerKeyUserMonthlyUsd: usd(env.AI_SERVER_KEY_USER_MONTHLY_USD, 5, 'AI_SERVER_KEY_USER_MONTHLY_USD'),
    aiServerKeyTotalMonthlyUsd: usd(
      env.AI_SERVER_KEY_TOTAL_MONTHLY_USD,
      50,
      'AI_SERVER_KEY_TOTAL_MONTHLY_USD',
    ),
    aiModelPrices: parseModelPrices(env.AI_MODEL_PRICES),
    aiServerKeyFree: bool(env.AI_SERVER_KEY_FREE, 'AI_SERVER_KEY_FREE'),
    secretsKey: env.SECRETS_KEY || undefined,
    figmaToken: env.FIGMA_TOKEN?.trim() || undefined,
    figmaTokenShared: bool(env.FIGMA_TOKEN_SHARED, 'FIGMA_TOKEN_SHARED'),
    figmaApiBase: httpUrl(env.FIGMA_API_BASE, 'FIGMA_API_BASE') ?? 'https://api.figma.com',
    exploreMaxPages: Math.max(1, int(env.EXPLORE_MAX_PAGES, 10, 'EXPLORE_MAX_PAGES')),
    exploreTimeBudgetMs: int(env.EXPLORE_TIME_BUDGET_MS, 20_000, 'EXPLORE_TIME_BUDGET_MS'),
    exploreBehaviourMaxActions: Math.max(
      1,
      int(env.EXPLORE_BEHAVIOUR_MAX_ACTIONS, 40, 'EXPLORE_BEHAVIOUR_MAX_ACTIONS'),
    ),
    exploreBehaviourTimeBudgetMs: int(
      env.EXPLORE_BEHAVIOUR_TIME_BUDGET_MS,
      60_000,
      'EXPLORE_BEHAVIOUR_TIME_BUDGET_MS',
    ),
    generationCheckRuns: Math.max(0, int(env.GENERATION_CHECK_RUNS, 2, 'GENERATION_CHECK_RUNS')),
    stepTimeoutMs: int(env.STEP_TIMEOUT_MS, 10_000, 'STEP_TIMEOUT_MS'),
    testTimeoutMs: int(env.TEST_TIMEOUT_MS, 90_000, 'TEST_TIMEOUT_MS'),
    shutdownTimeoutMs: Math.max(1, int(env.SHUTDOWN_TIMEOUT_MS, 15_000, 'SHUTDOWN_TIMEOUT_MS')),
    maxLiveBrowsersPerUser: Math.max(1, int(env.MAX_LIVE_BROWSERS_PER_USER, 1, 'MAX_LIVE_BROWSERS_PER_USER')),
    maxLiveBrowsers: Math.max(
      1,
      int(env.MAX_LIVE_BROWSERS, Math.max(1, int(env.MAX_BROWSERS, 4, 'MAX_BROWSERS')), 'MAX_LIVE_BROWSERS'),
    ),
    conversationGraceMs: int(env.CONVERSATION_GRACE_MS, 15_000, 'CONVERSATION_GRACE_MS'),
    conversationIdleMs: int(env.CONVERSATION_IDLE_MS, 600_000, 'CONVERSATION_IDLE_MS'),
    conversationStartUrl:
      httpUrl(env.CONVERSATION_START_URL, 'CONVERSATION_START_URL') ?? 'https://duckduckgo.com/',
    conversationMaxLifetimeMs: int(
      env.CONVERSATION_MAX_LIFETIME_MS,
      3_600_000,
      'CONVERSATION_MAX_LIFETIME_MS',
    ),
    conversationMaxPendingInputs: Math.max(
      1,
      int(env.CONVERSATION_MAX_PENDING_INPUTS, 64, 'CONVERSATION_MAX_PENDING_INPUTS'),
    ),
    maxSocketsPerUser: Math.max(1, int(env.MAX_SOCKETS_PER_USER, 10, 'MAX_SOCKETS_PER_USER')),
    maxSocketsPerAddress: Math.max(1, int(env.MAX_SOCKETS_PER_ADDRESS, 50, 'MAX_SOCKETS_PER_ADDRESS')),
    wsMessagesPerSecond: Math.max(1, int(env.WS_MESSAGES_PER_SECOND, 100, 'WS_MESSAGES_PER_SECOND')),
    wsMessageBurst: Math.max(1, int(env.WS_MESSAGE_BURST, 200, 'WS_MESSAGE_BURST')),
    wsMaxInFlight: Math.max(1, int(env.WS_MAX_IN_FLIGHT, 64, 'WS_MAX_IN_FLIGHT')),
    wsMaxBufferedBytes: Math.max(
      1024 * 1024,
      int(env.WS_MAX_BUFFERED_BYTES, 32 * 1024 * 1024, 'WS_MAX_BUFFERED_BYTES'),
    ),
    schedulerEnabled:
      (env.SCHEDULER_ENABLED ?? '').trim() === '' || bool(env.SCHEDULER_ENABLED, 'SCHEDULER_ENABLED'),
    schedulerTickMs: Math.max(100, int(env.SCHEDULER_TICK_MS, 5000, 'SCHEDULER_TICK_MS')),
    scheduleBusyRetryMs: Math.max(100, int(env.SCHEDULE_BUSY_RETRY_MS, 30_000, 'SCHEDULE_BUSY_RETRY_MS')),
    scheduleBusyWindowMs: int(env.SCHEDULE_BUSY_WINDOW_MS, 600_000, 'SCHEDULE_BUSY_WINDOW_MS'),
    webhookRetryBaseMs: Math.max(1, int(env.WEBHOOK_RETRY_BASE_MS, 30_000, 'WEBHOOK_RETRY_BASE_MS')),
    webhookMaxAttempts: Math.max(1, int(env.WEBHOOK_MAX_ATTEMPTS, 6, 'WEBHOOK_MAX_ATTEMPTS')),
    webhookTimeoutMs: Math.max(100, int(env.WEBHOOK_TIMEOUT_MS, 10_000, 'WEBHOOK_TIMEOUT_MS')),
    historyRetentionDays: int(env.HISTORY_RETENTION_DAYS, 30, 'HISTORY_RETENTION_DAYS'),
    auditRetentionDays: int(env.AUDIT_RETENTION_DAYS, 365, 'AUDIT_RETENTION_DAYS'),
    retentionSweepIntervalMs: Math.max(
      1000,
      int(env.RETENTION_SWEEP_INTERVAL_MS, 3_600_000, 'RETENTION_SWEEP_INTERVAL_MS'),
    ),
    retentionPace: retentionPace(env),
    version,
  };
}

/** Reads `.env` from the working directory, never overriding variables already set. */
export function loadDotEnv(path = resolve('.env')): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
