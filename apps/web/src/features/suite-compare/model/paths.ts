const suiteBase = (projectId: string, suiteId: string) =>
  `/projects/${encodeURIComponent(projectId)}/suites/${encodeURIComponent(suiteId)}`;

/** Regenerating a saved suite (the project's suites list links it). */
export const suiteRegeneratePath = (projectId: string, suiteId: string) =>
  `${suiteBase(projectId, suiteId)}/regenerate`;

/** One comparison of a regeneration with the saved suite, to review. */
export const suiteComparisonPath = (projectId: string, suiteId: string, comparisonId: string) =>
  `${suiteBase(projectId, suiteId)}/comparisons/${encodeURIComponent(comparisonId)}`;
