export { AnalyticsScreen, type AnalyticsScreenProps } from './analytics-screen';
