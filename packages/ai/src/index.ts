export {
  type BehaviourDraft,
  behaviourCases,
  describeBehaviours,
  matchCommand,
  type NamedBehaviour,
  nameBehaviour,
} from './behaviour-cases';
export { BuiltinPlanner } from './builtin-planner';
export { type CaseCheckOptions, type CaseRunner, checkCases } from './case-check';
export { answerFrom, answerQuestion } from './chat/answers';
export { BUILTIN_CHAT_HELP, BuiltinChatPlanner } from './chat/builtin-chat';
export type { ChatAction, ChatContext, ChatPlanner, ChatTurn } from './chat/chat-planner';
export { CHAT_SYSTEM, createChatPlanner, LlmChatPlanner, type LlmChatPlannerOptions } from './chat/llm-chat';
export { type Intent, isQuestion, parseIntent, splitClauses } from './chat/phrases';
export { commandCoverage, coverageOf } from './command-coverage';
export {
  type GeneratedSuite,
  type GenerateSuiteOptions,
  generateSuite,
  interactivePages,
  poolBrowsers,
  type SuiteBrowsers,
  screenshotPage,
  searchTermOf,
} from './generate-suite';
export {
  type DesignReview,
  type DesignReviewRequest,
  DesignReviewSchema,
  type MeasuredSummary,
  type ReviewRecommendation,
  type ReviewViewport,
  reviewDesign,
} from './llm/design-review';
export { createLlmEngine, type LlmEngine } from './llm/llm-engine';
export {
  AgentTurnSchema,
  actionLine,
  JudgementSchema,
  LlmInterpreter,
  type LlmInterpreterOptions,
} from './llm/llm-interpreter';
export { describePages, GeneratedCasesSchema, LlmPlanner, STEP_LANGUAGE_REFERENCE } from './llm/llm-planner';
export {
  ModelClient,
  type ModelClientOptions,
  type ModelRequest,
  type UsageKind,
  type UsageRecord,
} from './llm/model-client';
export {
  engineName,
  estimateCost,
  listPrice,
  type ModelConfig,
  type ModelPrice,
  modelPrice,
  type SpendGuard,
  type SpendReservation,
  seesImages,
} from './llm/model-config';
export { AnswerTooLargeError, formatBytes, ModelError, type ModelErrorCode } from './llm/model-errors';
export { type PageView, pageView } from './llm/page-view';
export {
  acceptedAnswer,
  LlmRepairProposer,
  type LlmRepairProposerOptions,
  REPAIR_SYSTEM,
  RepairAnswerSchema,
  repairPrompt,
} from './llm/repair-proposer';
export {
  type CachedResolution,
  type CacheEntry,
  cacheKey,
  MemoryStepCache,
  pageKey,
  type StepCacheStore,
} from './llm/step-cache';
export { type ConnectionTestResult, testConnection } from './llm/test-connection';
export {
  checkpoint,
  checkSteps,
  type GenerateOptions,
  type Planner,
  PlannerOutputError,
  type PlanRequest,
  throwIfStopped,
} from './planner';
export {
  createPlanner,
  DEFAULT_PLANNER_PROVIDER,
  PLANNER_PROVIDERS,
  type PlannerConfig,
  type PlannerProvider,
  plannerProvider,
  UnknownPlannerError,
} from './registry';
