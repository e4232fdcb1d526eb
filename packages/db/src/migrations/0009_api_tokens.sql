-- Argus in a delivery pipeline (docs/CI.md): personal API tokens a CI job sends as
-- `Authorization: Bearer argus_…`, and who or what started each run.

CREATE TABLE api_tokens (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- run | read | full (TokenScopeSchema, packages/protocol/src/ci.ts)
  scope text NOT NULL,
  -- SHA-256 of the whole token, hex: the token is never stored. Tokens are 32 random bytes, so a
  -- fast hash is as strong as a slow one here and lets every request be checked by one index lookup.
  token_hash text NOT NULL UNIQUE,
  -- The token's first characters, shown to tell tokens apart.
  hint text NOT NULL,
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC);

-- screen | api | schedule: who or what started a run (null for runs recorded before this).
ALTER TABLE test_runs ADD COLUMN trigger text;
