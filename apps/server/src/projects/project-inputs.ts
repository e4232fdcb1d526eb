import type {
  Environment,
  EnvironmentInputSchema,
  EnvironmentUpdateSchema,
  Project,
  ProjectCreateSchema,
  ProjectUpdateSchema,
  SavedSuiteInputSchema,
  VariableInputSchema,
} from '@argus/protocol';
import type { z } from 'zod';

// The bodies as the routes hand them over: parsed by the shared schemas, defaults filled in.
export type ProjectCreateBody = z.output<typeof ProjectCreateSchema>;
export type ProjectUpdateBody = z.output<typeof ProjectUpdateSchema>;
export type EnvironmentInputBody = z.output<typeof EnvironmentInputSchema>;
export type EnvironmentUpdateBody = z.output<typeof EnvironmentUpdateSchema>;
export type VariableInputBody = z.output<typeof VariableInputSchema>;
export type SavedSuiteInputBody = z.output<typeof SavedSuiteInputSchema> & {
  /**
   * Who wrote the cases when not a person (a generation: 'Generated'): the change described is then
   * prefixed with it ('Generated: added 2 test cases, …'), which a regenerate's comparison reads to
   * tell Argus's versions from hand edits (suite-compare/curated.ts). Server-side only.
   */
  written_by?: 'Generated';
};

/** Who saves a suite: the version history names them. */
export interface SuiteAuthor {
  id: string;
  username: string;
}

/** What a run or a generation on one of a project's environments starts from (ProjectService.target). */
export interface ProjectTarget {
  project: Project;
  environment: Environment;
  /** name → value, secrets decrypted: server-internal only, never sent anywhere. */
  values: Map<string, { value: string; secret: boolean }>;
}
