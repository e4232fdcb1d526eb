/** One problem with a field, wherever it came from: zod's `path` or a 422 answer's `loc` without 'body'. */
export interface FieldIssue {
  path: ReadonlyArray<string | number>;
  message: string;
}

/** zod issues (or anything with a path and a message) as FieldIssues. */
export function fieldIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): FieldIssue[] {
  return issues.map((issue) => ({
    path: issue.path.filter((p): p is string | number => typeof p !== 'symbol'),
    message: issue.message,
  }));
}

/** A 422 answer's issues as FieldIssues: the leading 'body' dropped. */
export function serverIssues(
  issues: ReadonlyArray<{ loc: ReadonlyArray<string | number>; msg: string }>,
): FieldIssue[] {
  return issues.map((issue) => ({
    path: issue.loc[0] === 'body' ? issue.loc.slice(1) : issue.loc,
    message: issue.msg,
  }));
}

/** The first message for each top-level field (`path[0]`); '' collects issues about the whole. */
export function firstByField(issues: readonly FieldIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length === 0 ? '' : String(issue.path[0]);
    out[key] ??= issue.message;
  }
  return out;
}
