export { ComparisonScreen } from './comparison-screen';
export { suiteComparisonPath, suiteRegeneratePath } from './model/paths';
export { RegenerateLink } from './regenerate-link';
export { RegenerateScreen } from './regenerate-screen';
