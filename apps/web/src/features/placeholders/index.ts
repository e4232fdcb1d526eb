export { ComingSoon } from './coming-soon';
export { AnalyticsScreen, HistoryScreen } from './screens';
