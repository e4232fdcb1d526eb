export { DesignComparisonScreen } from './design-comparison-screen';
export type { DesignComparisonScreenProps } from './types';
