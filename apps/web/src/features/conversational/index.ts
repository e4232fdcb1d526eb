export { ConversationalScreen } from './conversational-screen';
export type { ConversationalScreenProps } from './types';
