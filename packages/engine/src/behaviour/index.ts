export { isVolatile, type ProposedAssertion, persistenceAssertions, proposeAssertions } from './assertions';
export {
  type ActionKind,
  type CandidateAction,
  candidateActions,
  codeHints,
  ITEM_VALUES,
  LEAVING,
  valueFor,
} from './candidates';
export { diffSnapshots, type Effect, type EffectKind, meaningful } from './diff';
export { type Behaviour, type BehaviourExploreOptions, exploreBehaviours } from './explore-behaviours';
export type { PageSnapshot, SnapshotControl, SnapshotForm, SnapshotItem, SnapshotText } from './snapshot';
export type { BehaviourStep } from './steps';
