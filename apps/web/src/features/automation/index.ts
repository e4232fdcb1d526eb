// Reused by the run pages of Test History (app/history-route.tsx), fed with a stored run.
export { getRunScreenshots } from './api/run-screenshots';
export { AutomationScreen } from './automation-screen';
export { ExecutionLog } from './components/execution-log';
export { ScreenshotGallery } from './components/screenshot-gallery';
export { ScreenshotViewer } from './components/screenshot-viewer';
export { TestResultsList } from './components/test-results-list';
export type { TestResultItem } from './model/results';
export type { ScreenshotItem } from './model/screenshots';
export { screenshotFileName } from './model/screenshots';
export { applyStepUpdate, type LogEntry, logKey } from './model/step-log';
export type {
  AutomationProjects,
  AutomationScreenProps,
  ProjectPickerProps,
  ProjectSuitesProps,
} from './types';
