import type { CaseRepairsRepository } from '@argus/db';

/**
 * What a run's repairs read and write (the case repairs repository; AutomationDeps.repairs). Apart
 * from the hook so the automation's deps name it without importing the hook, which reads the run.
 */
export type RepairStore = Pick<
  CaseRepairsRepository,
  'add' | 'forSuite' | 'lastPassing' | 'rejected' | 'replace' | 'resultOf' | 'stepScreenshot'
>;
