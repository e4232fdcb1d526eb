export { visualBaselinesPath } from './model/baselines';
export { VisualBaselinesLink } from './visual-baselines-link';
export { VisualBaselinesScreen } from './visual-baselines-screen';
