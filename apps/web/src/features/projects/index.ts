export { getProject, useProject } from './api/get-project';
export { getSuite, useSavedSuite } from './api/get-suite';
export { listProjectRuns, useProjectRuns } from './api/list-runs';
export { listSuites, useProjectSuites } from './api/list-suites';
export { listVariables, useVariables as useProjectVariables } from './api/list-variables';
export { isSuiteVersionConflict, type SaveSuiteVariables, useSaveSuite } from './api/save-suite';
export { updateProject, useUpdateProject } from './api/update-project';
export {
  type ProjectEnvironmentChoice,
  ProjectEnvironmentPicker,
  type ProjectEnvironmentPickerProps,
  type ProjectEnvironmentValue,
} from './components/project-environment-picker';
export type { SuiteActions } from './components/suites-panel';
export { projectPagePath } from './model/paths';
export { NewProjectScreen } from './new-project-screen';
export { ProjectScreen } from './project-screen';
export { ProjectsOfKindScreen } from './projects-of-kind-screen';
