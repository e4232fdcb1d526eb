// The case diagnostics view (docs/DIAGNOSTICS.md), shared by the screens that show a run's cases:
// Automation, Test History's run page, a project's runs; and the failure groups of History and Analytics.
export { CaseDiagnosticsView, type DiagnosedResult } from './components/case-diagnostics-view';
export { FailureGroupsPanel } from './components/failure-groups-panel';
export { RunFailedCases } from './components/run-failed-cases';
export { isDiagnosed } from './model/diagnosed-cases';
