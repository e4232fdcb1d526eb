import type { RunReport } from '@argus/protocol';

/**
 * The JUnit testcases of a run's visual checks waiting for review (docs/VISUAL-CHECKS.md): each a
 * failure, its message the check's sentence and where to review it, its text the located issues. A
 * CI server lists them beside the cases, so 'changes to review' reads as failing there too (the CLI
 * exits 1 on them unless `--visual=report`). `xml` escapes text for an attribute or an element.
 */
export function visualTestcases(
  report: Pick<RunReport, 'visual' | 'suite_name' | 'id'>,
  reviewUrl: string,
  xml: (text: string) => string,
): string[] {
  const pending = report.visual?.pending ?? [];
  const classname = `${report.suite_name ?? `Argus run ${report.id}`} (visual checks)`;
  return pending.map((check) => {
    const message = `${check.message} (review at ${reviewUrl})`;
    const text = [check.message, ...check.issues.map((issue) => `- ${issue}`), '', `Review: ${reviewUrl}`];
    return [
      `    <testcase name="${xml(`${check.case_name}: ${check.check_name} looks as approved`)}" classname="${xml(classname)}" time="0.000">`,
      `      <failure message="${xml(message)}" type="VisualChange">${xml(text.join('\n'))}</failure>`,
      '    </testcase>',
    ].join('\n');
  });
}
