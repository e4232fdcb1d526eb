export { AUTOMATION_BANNERS, AutomationScreen } from './automation-screen';
export type {
  AutomationRealtime,
  AutomationScreenProps,
  AutomationSessionInput,
  AutomationSessionPatch,
  AutomationSessions,
} from './types';
