import { join } from 'node:path';
import { type Database, type Repositories, repositories } from '@argus/db';
import { BrowserPool, TargetPolicy } from '@argus/engine';
import type { FastifyBaseLogger } from 'fastify';
import { ActivityRegistry } from '../activity/activity-registry';
import type { Config } from '../config';
import { BrowserBudget } from '../limits/quotas';
import { Notifications } from '../notifications/webhooks';
import { ProjectService } from '../projects/project-service';
import { RunRecorder } from '../runs/run-recorder';
import { cappedFetch, policyFetch } from '../security/policy-fetch';
import { loadSecretsKey, Secrets } from '../security/secrets';
import { ModelSettingsService } from '../settings/model-settings';
import { BlobStore } from '../storage/blob-store';
import { createSignedUrls, type SignedUrls } from '../storage/signed-urls';

/** What every role builds its work on: the store, the browsers, the user's settings and projects. */
export interface Core {
  db: Database;
  repos: Repositories;
  blobs: BlobStore;
  /** Short-lived signed links to stored screenshots. */
  urls: SignedUrls;
  pool: BrowserPool;
  /** What is under way per user (generations, runs, live browsers, comparisons) and its browsers. */
  activities: ActivityRegistry;
  /** Writes runs, results, logs and screenshots as they happen. */
  recorder: RunRecorder;
  /** Encrypts users' API keys and tokens at rest (SECRETS_KEY, else DATA_DIR/secrets.key). */
  secrets: Secrets;
  projects: ProjectService;
  modelSettings: ModelSettingsService;
  /** A project's webhooks: a saved suite's run tells them when it is over, wherever it ran. */
  notifications: Notifications;
}

/** Builds the core; `secret` signs login tokens and links (auth-service.ts `loadJwtSecret`). */
export async function buildCore(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
  secret: Uint8Array,
): Promise<Core> {
  const repos = repositories(db);
  const blobs = new BlobStore(join(config.dataDir, 'blobs'));
  // The browser must never reach this server, whatever ALLOWED_TARGETS says.
  const self = [{ host: config.host === 'localhost' ? '127.0.0.1' : config.host, port: config.port }];
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: config.allowedTargets, self }),
    chromiumPath: config.chromiumPath,
    wsEndpoint: config.browserWsEndpoint,
    proxyHost: config.policyProxyHost,
    proxyPublicHost: config.policyProxyPublicHost,
    maxContexts: config.maxBrowsers,
  });
  const urls = createSignedUrls({ secret, ttlSeconds: config.signedUrlTtlSeconds });
  const activities = new ActivityRegistry({ browsers: new BrowserBudget(config.maxBrowsersPerUser), log });
  const recorder = new RunRecorder({
    repos,
    blobs,
    urls,
    log,
    maxStoredBytesPerUser: config.maxStoredBytesPerUser,
  });
  const secrets = new Secrets(await loadSecretsKey(config.dataDir, config.secretsKey));
  const projects = new ProjectService({ repos, secrets, policy: pool.policy });
  // A base URL a user types is held to the same policy as the browser (ALLOWED_TARGETS, never metadata).
  const modelSettings = new ModelSettingsService({
    config,
    repos,
    secrets,
    policy: pool.policy,
    fetch: policyFetch(pool.policy),
    // The operator's own model is not held to the policy (it may be local), but its answers are capped too.
    serverFetch: cappedFetch(),
  });
  // Webhook URLs are held to the browser's policy when saved, and each delivery's connection again.
  const notifications = new Notifications({
    config,
    repos,
    secrets,
    policy: pool.policy,
    fetch: policyFetch(pool.policy, { maxResponseBytes: 64 * 1024 }),
    log,
  });
  return {
    db,
    repos,
    blobs,
    urls,
    pool,
    activities,
    recorder,
    secrets,
    projects,
    modelSettings,
    notifications,
  };
}
