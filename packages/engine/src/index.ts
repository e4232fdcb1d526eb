// The step grammar lives in @argus/protocol (the web app checks custom steps with it); re-exported here.
export { parseStep, parseSteps, q, type Step, StepSyntaxError } from '@argus/protocol';
export {
  type ActionKind,
  type Behaviour,
  type BehaviourExploreOptions,
  type BehaviourStep,
  type CandidateAction,
  candidateActions,
  diffSnapshots,
  type Effect,
  type EffectKind,
  exploreBehaviours,
  isVolatile,
  type PageSnapshot,
  type ProposedAssertion,
  persistenceAssertions,
  proposeAssertions,
  type SnapshotControl,
  type SnapshotItem,
  type SnapshotText,
} from './behaviour';
export {
  BrowserPool,
  type BrowserPoolOptions,
  type ContextOptions,
  type QueueOptions,
  QueuePositions,
  queuedMessage,
  type SessionOpener,
  withStorageState,
} from './browser-pool';
export type {
  BrowserSession,
  KeyInput,
  NavigateResult,
  OperationOptions,
  PointerInput,
  ScreencastFrame,
  ScreencastOptions,
  Screenshot,
  SessionCloseReason,
  SessionOptions,
  StorageState,
  WheelInput,
} from './browser-session';
export {
  CHROMIUM_ARGS,
  findChromium,
  findFullChromium,
  REFUSED_SCHEMES,
  RUNNING_AS_ROOT,
  refuseLocalSchemes,
} from './chromium';
export { AbortedError, abortableDelay } from './errors';
export { failureFingerprint, foldFailureText } from './failure/fingerprint';
export {
  type ExploreOptions,
  explore,
  type FieldObservation,
  type FormObservation,
  type LinkObservation,
  type PageObservation,
} from './observe';
export {
  BLOCKED_HEADER,
  type PolicyProxy,
  type PolicyProxyOptions,
  type ProxyCredentials,
  startPolicyProxy,
} from './policy-proxy';
export { isCredentialHeader, secretSpellings } from './recording/secrets';
export { redactTrace } from './recording/trace-redaction';
export { assertionWeakenings } from './repair/assertion-strength';
export { proposeRepair } from './repair/propose-repair';
export { type Rename, renamesOf } from './repair/renames';
export type {
  RepairCaseRunner,
  RepairOptions,
  RepairOutcome,
  RepairProposer,
  RepairRequest,
} from './repair/repair-types';
export {
  onSignInPage,
  SignedInSessions,
  SignInError,
  type SignInOptions,
  type SignInPlan,
  signIn,
  signInHere,
  signInPageOf,
} from './sign-in';
export { accountsMode, type SignInAccount, signInAccounts } from './sign-in-accounts';
export { type LaneSignIn, SignInLanes, type SignInLanesOptions } from './sign-in-lanes';
export type {
  InterpretContext,
  InterpretedStep,
  InterpreterUsage,
  Judgement,
  StepInterpreter,
} from './step-interpreter';
export {
  type AddressClass,
  classifyAddress,
  type PolicyDecision,
  TargetPolicy,
  type TargetPolicyOptions,
} from './target-policy';
export {
  BUILTIN_ENGINE,
  type CapturedScreenshot,
  type LogEntry,
  type RecordedFiles,
  type RunTestOptions,
  runTestCase,
  type SessionRenewal,
  type TestOutcome,
} from './test-runner';
export { totpCode, totpCodesBetween } from './totp';
export {
  fillText,
  MissingVariableError,
  namesSecret,
  newRunId,
  RUN_ID,
  redactError,
  redactor,
  type StepVariables,
} from './variables';
export type {
  RecordedVisualCheck,
  VisualCaptureSession,
  VisualCheckRequest,
  VisualChecks,
  VisualVerdict,
} from './visual/visual-checks';
export { isWebPage, resolveWebUrl, SchemeRefusedError } from './web-url';
