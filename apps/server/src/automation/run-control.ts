/** What the user reads (`progress`) and the run's log records (`note`) when a run is resumed or handed back. */
export interface RunNotice {
  progress: string;
  note: string;
}

/**
 * How whoever starts a run steers it from outside it (docs/DEPLOYMENT.md#how-work-flows): a run may be
 * one cut short before and taken up again, keeping what it recorded, and it may be handed back part-way
 * for whoever takes it up next to finish. The words said about either are the starter's, who knows
 * where the run goes. A run started without a control is neither (`UNCONTROLLED`).
 */
export interface RunControl {
  /**
   * The run `test_run_id` names was cut short mid-way: its recorded cases stay, are counted, and are
   * not run again; the others run.
   */
  readonly resume: boolean;
  /**
   * Asked before each case: once true, the run takes no new case. When cases are left, the run ends
   * without a verdict once the cases under way are recorded (its row still running), and `handedBack`
   * is told.
   */
  handingBack(): boolean;
  /** The run ended handed back, its row still running, for whoever resumes it. */
  handedBack(runId: string): void;
  /** Said when a resumed run starts, `recorded` of its `total` cases recorded before. */
  resumedNotice(recorded: number, total: number): RunNotice;
  /** Said when a run ends handed back, `recorded` of its `total` cases recorded. */
  handedBackNotice(recorded: number, total: number): RunNotice;
}

/** A run nobody steers from outside: it starts afresh and runs to its end. */
export const UNCONTROLLED: RunControl = {
  resume: false,
  handingBack: () => false,
  handedBack: () => {},
  resumedNotice: () => ({ progress: '', note: '' }),
  handedBackNotice: () => ({ progress: '', note: '' }),
};
