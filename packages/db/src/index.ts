export {
  type AnalyticsRange,
  type AnalyticsRepository,
  analyticsRepository,
  type DailyRow,
  type DesignScoreRow,
  type DurationRow,
  type FailingStepRow,
  type FlakyRow,
  type ModelCostRow,
  type SlowTestRow,
} from './analytics';
export { type ApiTokensRepository, apiTokensRepository, type NewApiToken } from './api-tokens';
export {
  type AuditFilter,
  type AuditLogRepository,
  auditLogRepository,
  type NewAuditEntry,
} from './audit-log';
export {
  type CaseArtifactRow,
  type CaseArtifactsRepository,
  caseArtifactsRepository,
  type NewCaseArtifact,
} from './case-artifacts';
export {
  type CaseRepairRow,
  type CaseRepairsRepository,
  caseRepairsRepository,
  type LastPassingRow,
  MAX_SUITE_REPAIRS,
  type NewCaseRepair,
} from './case-repairs';
export {
  type ConversationsRepository,
  conversationsRepository,
  type NewConversation,
  type NewConversationMessage,
} from './conversations';
export {
  type Database,
  type DatabaseKind,
  type DatabaseOptions,
  migrate,
  openDatabase,
  redactUrl,
} from './database';
export { type DemoRequestsRepository, demoRequestsRepository } from './demo-requests';
export {
  type DesignComparisonsRepository,
  designComparisonsRepository,
  type NewComparison,
  type NewComparisonImage,
  type NewDesignUpload,
} from './design-comparisons';
export { DatabaseInUseError } from './dir-lock';
export {
  AD_HOC_WINDOW_DAYS,
  type FailureGroupRow,
  type FailureGroupsRepository,
  type FailureSightingsRow,
  failureGroupsRepository,
  MAX_GROUP_CASES,
  type OpenGroupsFilter,
} from './failure-groups';
export {
  type CaseResultRow,
  type HistoryFilter,
  type HistoryRepository,
  type HistoryRow,
  historyRepository,
  likePattern,
  type SuiteScope,
  type SuiteVersionRow,
} from './history';
export { type HistorySeedOptions, type HistorySeedReport, seedHistory } from './history-seed';
export {
  type InvitationRefusal,
  type InvitationsRepository,
  invitationsRepository,
  type NewInvitation,
} from './invitations';
export {
  type ModelUsageRepository,
  type ModelUsageTotals,
  modelUsageRepository,
  type NewModelUsage,
} from './model-usage';
export {
  LastOwnerError,
  type MemberRole,
  type MemberRow,
  type OrganizationsRepository,
  type OrgOfMember,
  organizationsRepository,
} from './organizations';
export {
  type NewEnvironment,
  type NewProject,
  type NewVariable,
  type ProjectPatch,
  type ProjectScope,
  type ProjectsRepository,
  type ProjectWithEnvironments,
  projectsRepository,
  type SuiteRunSettings,
  type SuiteSave,
  type SuiteVersionSummary,
  type SuiteWithVersions,
  type VariableValue,
} from './projects';
export {
  type NewRetentionSweep,
  type RetentionRepository,
  retentionRepository,
  type StorageTotals,
} from './retention';
export type { RetryOptions } from './retrying-pool';
export {
  type NewSchedule,
  type ScheduleListing,
  type ScheduleOutcomePatch,
  type SchedulePatch,
  type SchedulesRepository,
  schedulesRepository,
} from './schedules';
export type {
  ApiTokenRow,
  AuditLogRow,
  ComparisonImageRow,
  ComparisonImagesRow,
  ComparisonRow,
  ConversationActionRow,
  ConversationMessageRow,
  ConversationRow,
  DemoRequestRow,
  DesignUploadRow,
  EnvironmentRow,
  InvitationRow,
  MembershipRow,
  ModelUsageRow,
  OrganizationRow,
  ProjectLoginRow,
  ProjectRow,
  ProjectVariableRow,
  RetentionSweepRow,
  SavedSuiteRow,
  SavedSuiteVersionRow,
  ScheduleRow,
  ScreenshotRow,
  SessionRow,
  SsoFlowRow,
  SsoIdentityRow,
  TestResultRow,
  TestRunRow,
  UserRow,
  UserSettingsRow,
  WebhookDeliveryRow,
  WebhookRow,
} from './schema';
export { type NewSession, type SessionFilter, type SessionsRepository, sessionsRepository } from './sessions';
export { type NewSsoFlow, type SsoRepository, type SsoSubject, ssoRepository } from './sso';
export { type StepCacheEntry, type StepCacheRepository, stepCacheRepository } from './step-cache';
export {
  type NewSuiteComparison,
  type SuiteComparisonRow,
  type SuiteComparisonsRepository,
  suiteComparisonsRepository,
} from './suite-comparisons';
export {
  type NewScreenshot,
  type NewTestResult,
  type NewTestRun,
  type TestRunPatch,
  type TestRunsRepository,
  testRunsRepository,
} from './test-runs';
export {
  createScratchDatabase,
  openMigratedPglite,
  seedPgliteDir,
  startPostgresCut,
  type TestEngine,
  testEngines,
} from './testing';
export { type UserSettingsPatch, type UserSettingsRepository, userSettingsRepository } from './user-settings';
export { isUuid, type NewUser, UniqueViolation, type UsersRepository, usersRepository } from './users';
export {
  type NewVisualBaseline,
  type NewVisualCheck,
  type VisualBaselineRow,
  type VisualCheckRow,
  type VisualChecksRepository,
  type VisualCheckWithBaseline,
  type VisualDecision,
  type VisualElementMaskRow,
  type VisualKey,
  type VisualMaskRow,
  type VisualScope,
  type VisualSettings,
  visualChecksRepository,
  visualKeyOf,
} from './visual-checks';
export {
  type DeliveryListing,
  type DeliveryPatch,
  type NewDelivery,
  type NewWebhook,
  type WebhookPatch,
  type WebhooksRepository,
  webhooksRepository,
} from './webhooks';

import { analyticsRepository } from './analytics';
import { apiTokensRepository } from './api-tokens';
import { auditLogRepository } from './audit-log';
import { caseArtifactsRepository } from './case-artifacts';
import { caseRepairsRepository } from './case-repairs';
import { conversationsRepository } from './conversations';
import type { Database } from './database';
import { demoRequestsRepository } from './demo-requests';
import { designComparisonsRepository } from './design-comparisons';
import { failureGroupsRepository } from './failure-groups';
import { historyRepository } from './history';
import { invitationsRepository } from './invitations';
import { modelUsageRepository } from './model-usage';
import { organizationsRepository } from './organizations';
import { projectsRepository } from './projects';
import { retentionRepository } from './retention';
import { schedulesRepository } from './schedules';
import { sessionsRepository } from './sessions';
import { ssoRepository } from './sso';
import { stepCacheRepository } from './step-cache';
import { testRunsRepository } from './test-runs';
import { userSettingsRepository } from './user-settings';
import { usersRepository } from './users';
import { visualChecksRepository } from './visual-checks';
import { webhooksRepository } from './webhooks';

/** Every repository over one open database. */
export function repositories(db: Database) {
  return {
    users: usersRepository(db.orm),
    organizations: organizationsRepository(db.orm),
    invitations: invitationsRepository(db.orm),
    sessions: sessionsRepository(db.orm),
    demoRequests: demoRequestsRepository(db.orm),
    testRuns: testRunsRepository(db.orm),
    failureGroups: failureGroupsRepository(db.orm),
    caseArtifacts: caseArtifactsRepository(db.orm),
    caseRepairs: caseRepairsRepository(db.orm),
    userSettings: userSettingsRepository(db.orm),
    modelUsage: modelUsageRepository(db.orm),
    stepCache: stepCacheRepository(db.orm),
    conversations: conversationsRepository(db.orm),
    designComparisons: designComparisonsRepository(db.orm),
    projects: projectsRepository(db.orm),
    apiTokens: apiTokensRepository(db.orm),
    schedules: schedulesRepository(db.orm),
    webhooks: webhooksRepository(db.orm),
    history: historyRepository(db.orm),
    analytics: analyticsRepository(db.orm),
    retention: retentionRepository(db.orm),
    sso: ssoRepository(db.orm),
    auditLog: auditLogRepository(db.orm),
    visual: visualChecksRepository(db.orm),
  };
}
export type Repositories = ReturnType<typeof repositories>;
export {
  StatementCancelledError,
  type StatementScope,
  statementScope,
  withStatementScope,
} from './statement-scope';
export { refreshStatistics } from './statistics';
