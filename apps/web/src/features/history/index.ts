export { HistoryScreen, type HistoryScreenProps } from './history-screen';
export { runPagePath } from './model/links';
export { RunScreen, type RunScreenProps, type RunTab } from './run-screen';
