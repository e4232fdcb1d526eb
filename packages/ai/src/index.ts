export {
  type BehaviourDraft,
  behaviourCases,
  describeBehaviours,
  matchCommand,
  type NamedBehaviour,
  nameBehaviour,
} from './behaviour-cases';
export { BuiltinPlanner } from './builtin-planner';
export {
  type GeneratedSuite,
  type GenerateSuiteOptions,
  generateSuite,
  interactivePages,
  searchTermOf,
} from './generate-suite';
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
