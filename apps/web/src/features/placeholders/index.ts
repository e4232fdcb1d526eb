export { ComingSoon } from './coming-soon';
export {
  AnalyticsScreen,
  ApiProjectScreen,
  HistoryScreen,
  MobileProjectScreen,
  NewProjectScreen,
  WebProjectScreen,
} from './screens';
