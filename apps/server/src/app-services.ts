import type { Database, Repositories } from '@argus/db';
import type { BrowserPool } from '@argus/engine';
import type { ApiTokenService } from './auth/api-tokens';
import type { AuthService } from './auth/auth-service';
import type { AutomationFront } from './automation/automation-front';
import type { ComparisonFront } from './comparison/comparison-front';
import type { ComparisonService } from './comparison/comparison-service';
import type { Config } from './config';
import type { ConversationFront } from './conversation/conversation-front';
import type { ConversationService } from './conversation/conversation-service';
import type { AnalyticsService } from './history/analytics-service';
import type { HistoryService } from './history/history-service';
import type { RateLimits } from './limits/rate-limits';
import type { Notifications } from './notifications/webhooks';
import type { ProjectService } from './projects/project-service';
import type { RetentionSweeper } from './retention/retention-sweeper';
import type { ScheduleService } from './schedules/schedule-service';
import type { Scheduler } from './schedules/scheduler';
import type { Secrets } from './security/secrets';
import type { ModelSettingsService } from './settings/model-settings';
import type { BlobStore } from './storage/blob-store';
import type { SignedUrls } from './storage/signed-urls';

/**
 * What the app's route plugins, socket handlers and gateway are built over: each plugin declares the
 * members it takes as a `Pick` of this, and app.ts hands it those only. The composers of compose/ build
 * it, one per role (single process or web process); the same members answer in either, the fronts
 * locally or through the queues.
 */
export interface Services {
  config: Config;
  db: Database;
  repos: Repositories;
  auth: AuthService;
  /** Personal API tokens (docs/CI.md#api-tokens), accepted beside login tokens on the REST API. */
  apiTokens: ApiTokenService;
  blobs: BlobStore;
  /** Short-lived signed links to stored screenshots. */
  urls: SignedUrls;
  pool: BrowserPool;
  /** Generations and runs as routes, sockets and the scheduler start them: here, or queued for workers. */
  automation: AutomationFront;
  /** This process's live browsers (the conversation routes' counts and shutdown). */
  conversations: ConversationService;
  /** Conversational mode as the socket handlers call it: here, or live browsers held by workers. */
  conversationFront: ConversationFront;
  /** This process's design uploads and stored comparisons (the upload and comparison routes). */
  comparisons: ComparisonService;
  /** Design comparison as the socket handlers call it: here, or queued for workers. */
  comparisonFront: ComparisonFront;
  /** Encrypts users' API keys and tokens at rest (SECRETS_KEY, else DATA_DIR/secrets.key). */
  secrets: Secrets;
  /** Projects: environments, variables and secrets, saved suites. */
  projects: ProjectService;
  /** Each user's model, Figma token and monthly budget (Settings), over the server's AI_* defaults. */
  modelSettings: ModelSettingsService;
  /** Saved suites' schedules (docs/SCHEDULES.md): what the project page reads and writes. */
  schedules: ScheduleService;
  /** Runs schedules when they come due and sweeps due webhook deliveries (SCHEDULER_ENABLED). */
  scheduler: Scheduler;
  /** A project's webhooks: told when a saved suite's run is over, signs and delivers with retries. */
  notifications: Notifications;
  /** Removes history older than HISTORY_RETENTION_DAYS, rows and blobs together (the lifecycle starts it). */
  retention: RetentionSweeper;
  /** Test history (docs/HISTORY.md): runs, comparisons and conversations, a run beside the previous one. */
  history: HistoryService;
  /** Analytics over a range of the user's history (docs/HISTORY.md#analytics). */
  analytics: AnalyticsService;
  /** Request limits, counted in Redis with REDIS_URL in a web process (one total for all of them). */
  limits: RateLimits;
}
