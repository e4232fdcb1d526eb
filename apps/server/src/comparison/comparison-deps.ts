import type { Repositories } from '@argus/db';
import type { BrowserSession, QueueOptions, SessionOptions, TargetPolicy } from '@argus/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { ActivityRegistry } from '../activity/activity-registry';
import type { ModelClientResolver } from '../automation/engines';
import type { Config } from '../config';
import type { RateLimit } from '../limits/rate-limiter';
import type { Send, Unaddressed } from '../realtime/user-channel';
import type { BlobStore } from '../storage/blob-store';
import type { SignedUrls } from '../storage/signed-urls';

/** A message to the sockets a comparison answers, addressed to its session by whoever made it. */
export type Emit = (message: Unaddressed) => void;

/**
 * Where answers go: a refusal to the socket that asked only (another tab did not ask), the work's
 * progress and outcome to every socket of the user (each tab follows the comparison).
 */
export interface Senders {
  reply: Send;
  broadcast: Send;
}

/** A comparison's progress as the user sees it (the percent never goes backwards). */
export type Progress = (percent: number, message: string) => void;

/** What a comparison's work needs of the server. */
export interface ComparisonDeps {
  config: Pick<
    Config,
    | 'figmaApiBase'
    | 'maxStoredBytesPerUser'
    | 'comparisonImageConcurrency'
    | 'comparisonMaxPixels'
    | 'uploadsPerUser'
    | 'rateLimitWindowSeconds'
  >;
  repos: Repositories;
  blobs: BlobStore;
  urls: SignedUrls;
  /** Comparisons begin there, one per user, taking browsers of the user's MAX_BROWSERS_PER_USER. */
  activities: ActivityRegistry;
  /** The browser pool's `openSession` (its `onQueued` says the comparison's place in line). */
  openSession: (options: SessionOptions & QueueOptions) => Promise<BrowserSession>;
  /** The browser's target policy: a website the browser may not reach is refused before anything starts. */
  policy: Pick<TargetPolicy, 'check'>;
  /** The user's Figma token (Settings), else FIGMA_TOKEN. */
  figmaToken: (userId: string) => Promise<string | undefined>;
  /** Refuses a `session_id` that is not the user's (SESSION_NOT_FOUND). */
  checkSession: (userId: string, sessionId: string | null) => Promise<void>;
  /**
   * The user's model (automation's choice: Settings, else AI_*), for the optional visual review added
   * to the measured results when it sees images; none: no review is ever asked for.
   */
  reviewModel?: ModelClientResolver;
  /** UPLOADS_PER_USER, as the composition root counts it (in Redis with REDIS_URL); none: this process's own. */
  uploadLimit?: RateLimit;
  /** Figma's API is called with it (tests inject one). @default globalThis.fetch */
  fetch?: typeof fetch;
  log: FastifyBaseLogger;
}
