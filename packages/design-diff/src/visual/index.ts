export {
  type BaselineComparison,
  type BaselineComparisonInput,
  compareWithBaseline,
} from './compare-baseline';
export type { VisualIssue } from './describe';
export { captureSettled, type SettledCapture, type SettledCaptureOptions } from './settled-capture';
export {
  type Baseline,
  type BaselineStore,
  createVisualChecks,
  MemoryBaselineStore,
  type VisualCapture,
  type VisualCheckKey,
  type VisualChecksOptions,
} from './visual-checks';
