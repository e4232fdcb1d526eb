import { refreshStatistics } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../app-services';
import { ApiTokenService } from '../auth/api-tokens';
import { createAuthService } from '../auth/auth-service';
import type { Config } from '../config';
import { AnalyticsService } from '../history/analytics-service';
import { HistoryService } from '../history/history-service';
import { AuditSweeper } from '../retention/audit-retention';
import { RetentionSweeper } from '../retention/retention-sweeper';
import { ScheduleService } from '../schedules/schedule-service';
import { Scheduler } from '../schedules/scheduler';
import type { Core } from './core';
import type { Lifecycle } from './lifecycle';
import type { LocalWork } from './local-work';

/** A process that serves the app, composed: what its routes and sockets use, and its lifecycle. */
export interface Serving {
  services: Services;
  lifecycle: Lifecycle;
}

/** Where the socket handlers, routes and scheduler send work: this process, or the queues. */
export type Fronts = Pick<Services, 'automation' | 'conversationFront' | 'comparisonFront'>;

/**
 * What a process serving the app (one process, or a web process) builds over its core and local work,
 * given where work goes (`fronts`) and its request limits: auth, schedules, history, retention, and the start and
 * stop of what it holds. The role's composer adds what is its own (single.ts, web.ts).
 */
export function buildServing(
  config: Config,
  core: Core,
  local: LocalWork,
  fronts: Fronts,
  { secret, limits, log }: { secret: Uint8Array; limits: Services['limits']; log: FastifyBaseLogger },
): Serving {
  const { db, repos, notifications } = core;
  const scheduler = new Scheduler({
    config,
    repos,
    automation: fronts.automation,
    deliverDue: (now) => notifications.deliverDue(now),
    log,
  });
  // Removes history older than HISTORY_RETENTION_DAYS, rows and blobs together.
  const retention = new RetentionSweeper({
    config,
    repos,
    blobs: core.blobs,
    log,
    refreshStatistics: db.kind === 'pglite' ? () => refreshStatistics(db).then(() => undefined) : undefined,
  });
  // Removes audit log rows older than AUDIT_RETENTION_DAYS (a window of its own).
  const auditRetention = new AuditSweeper({ config, repos, log });
  const services: Services = {
    config,
    db,
    repos,
    auth: createAuthService({
      users: repos.users,
      organizations: repos.organizations,
      secret,
      tokenTtlSeconds: config.tokenTtlSeconds,
    }),
    apiTokens: new ApiTokenService(repos),
    blobs: core.blobs,
    urls: core.urls,
    pool: core.pool,
    ...fronts,
    conversations: local.conversations,
    comparisons: local.comparisons,
    secrets: core.secrets,
    projects: core.projects,
    modelSettings: core.modelSettings,
    schedules: new ScheduleService({ repos, projects: core.projects }),
    scheduler,
    notifications,
    retention,
    history: new HistoryService(repos),
    analytics: new AnalyticsService(repos),
    limits,
  };
  return {
    services,
    lifecycle: {
      // Schedules tick in every process once the app is ready (SCHEDULER_ENABLED); history retention
      // sweeps a minute after start, then every RETENTION_SWEEP_INTERVAL_MS.
      start: [
        ...(config.schedulerEnabled ? [() => scheduler.start()] : []),
        () => retention.start(),
        () => auditRetention.start(),
      ],
      stop: [
        // This process's own work: a comparison under way is stopped (nothing half-done is stored)
        // before the browsers close.
        () => local.automation.shutdown(),
        () => core.activities.shutdown('design'),
        () => core.pool.close(),
        // A sweep under way finishes its batch first; what is left of schedules and webhook retries
        // stays due in the database.
        () => retention.stop(),
        () => auditRetention.stop(),
        () => scheduler.stop(),
        () => notifications.close(),
      ],
    },
  };
}
