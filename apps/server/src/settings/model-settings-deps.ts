import type { Repositories } from '@argus/db';
import type { TargetPolicy } from '@argus/engine';
import type { Config } from '../config';
import type { Secrets } from '../security/secrets';

export interface ModelSettingsDeps {
  config: Config;
  repos: Pick<Repositories, 'userSettings' | 'modelUsage'>;
  secrets: Secrets;
  /** The server browser's policy (ALLOWED_TARGETS): a base URL a user types must pass it too. */
  policy: Pick<TargetPolicy, 'check'>;
  /**
   * How calls to a user's own model go out: `policyFetch` over the same policy (each connection
   * judged as it is opened, redirects refused). @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /** How calls to the server's own model (AI_BASE_URL) go out: `cappedFetch`. @default globalThis.fetch */
  serverFetch?: typeof globalThis.fetch;
  now?: () => Date;
}

/** What the parts of this folder share: the deps, with the clock resolved once. */
export type SettingsParts = ModelSettingsDeps & { now: () => Date };
