export { ComingSoon } from './coming-soon';
export { ScreenPlaceholder } from './screen-placeholder';
export {
  AnalyticsScreen,
  ApiProjectScreen,
  DesignComparisonPlaceholder,
  HistoryScreen,
  MobileProjectScreen,
  NewProjectScreen,
  WebProjectScreen,
} from './screens';
