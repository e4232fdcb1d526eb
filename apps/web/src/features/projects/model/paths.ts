import type { ProjectKind } from '@argus/protocol';

/** A project's page. */
export const projectPagePath = (id: string) => `/projects/${encodeURIComponent(id)}`;

/** The create form, with a kind chosen. */
export const newProjectPath = (kind: ProjectKind) => `/projects/new?kind=${kind}`;
