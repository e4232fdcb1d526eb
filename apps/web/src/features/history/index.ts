export { HistoryScreen, type HistoryScreenProps } from './history-screen';
export { runPagePath } from './model/links';
export { RunScreen, type RunScreenProps } from './run-screen';
