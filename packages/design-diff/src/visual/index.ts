export {
  type BaselineComparison,
  type BaselineComparisonInput,
  compareWithBaseline,
} from './compare-baseline';
export type { VisualIssue } from './describe';
export { type ElementMask, findElementMasks } from './element-masks';
export { captureSettled, type SettledCapture, type SettledCaptureOptions } from './settled-capture';
export {
  type Baseline,
  type BaselineStore,
  COMPARING_GAP_MS,
  createVisualChecks,
  MemoryBaselineStore,
  RECORDING_GAP_MS,
  type VisualCapture,
  type VisualCheckKey,
  type VisualChecksOptions,
} from './visual-checks';
