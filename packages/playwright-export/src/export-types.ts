import type { ProjectLogin } from '@argus/protocol';

// What an export takes and what it gives.

/** A variable or secret of the project, as the export sees it: a secret never has a value here. */
export interface ExportVariable {
  name: string;
  secret: boolean;
  /** A plain variable's saved value (the default of its environment variable); ignored for a secret. */
  value?: string | null;
}

export interface ExportCase {
  test_name: string;
  steps: string[];
  /** The page the case starts on when it does not begin with `Navigate to`; empty: the base URL. */
  url?: string;
  description?: string;
}

export interface ExportSuite {
  name: string;
  test_cases: ExportCase[];
}

export interface ExportInput {
  project: string;
  environment: { name: string; base_url: string };
  login: ProjectLogin;
  variables: ExportVariable[];
  suites: ExportSuite[];
  /** The viewport of every test (a mobile project's phone). @default 1280 × 800 */
  viewport?: { width: number; height: number };
}

export interface ExportFile {
  path: string;
  content: string;
}

export interface ExportResult {
  files: ExportFile[];
  /** Lines left as `// TODO(argus):` comments: the step language cannot express them, or the export cannot. */
  todo: number;
  /** Step lines exported (the login's included). */
  lines: number;
  /** Test cases exported. */
  tests: number;
}
