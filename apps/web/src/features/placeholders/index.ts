export { ComingSoon } from './coming-soon';
export { ScreenPlaceholder } from './screen-placeholder';
export {
  AnalyticsScreen,
  ApiProjectScreen,
  ConversationalPlaceholder,
  DesignComparisonPlaceholder,
  HistoryScreen,
  MobileProjectScreen,
  NewProjectScreen,
  SettingsScreen,
  WebProjectScreen,
} from './screens';
