/** A saved suite's proposals waiting for review (the project's suites list links it). */
export const suiteRepairsPath = (projectId: string, suiteId: string) =>
  `/projects/${encodeURIComponent(projectId)}/suites/${encodeURIComponent(suiteId)}/repairs`;
