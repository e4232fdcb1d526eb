export { AutomationScreen } from './automation-screen';
export type {
  AutomationProjects,
  AutomationScreenProps,
  ProjectPickerProps,
  ProjectSuitesProps,
} from './types';
