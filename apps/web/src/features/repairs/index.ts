export { suiteRepairsPath } from './model/paths';
export { RunRepairs, RunRepairsTabLabel } from './run-repairs';
export { SuiteRepairsEntry, SuiteRepairsScreen } from './suite-repairs-screen';
