export { ConversationalScreen } from './conversational-screen';
export type {
  ConversationalProjectChoice,
  ConversationalProjectDetails,
  ConversationalProjects,
  ConversationalScreenProps,
} from './types';
