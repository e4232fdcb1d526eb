export { AutomationScreen } from './automation-screen';
