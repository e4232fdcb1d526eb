-- The LLM engine (issue 9): a user's own model settings (secrets encrypted by the server, never
-- stored in clear), what each model call cost, and the steps a model resolved, cached for replay.

CREATE TABLE user_settings (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- NULL provider: the server's AI_PROVIDER configuration applies.
  ai_provider text,
  ai_model text,
  ai_base_url text,
  -- AES-256-GCM, base64 "iv.tag.ciphertext"; the last four characters are kept apart for display.
  ai_api_key_enc text,
  ai_api_key_last4 text,
  figma_token_enc text,
  figma_token_last4 text,
  -- US dollars per calendar month (UTC); NULL means no limit.
  monthly_budget_usd double precision,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE model_usage (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- generation | step | judge | connection-test | conversation
  kind text NOT NULL,
  test_run_id uuid REFERENCES test_runs (id) ON DELETE SET NULL,
  session_id text,
  provider text NOT NULL,
  model text NOT NULL,
  input_tokens integer NOT NULL DEFAULT 0,
  output_tokens integer NOT NULL DEFAULT 0,
  cost_usd double precision NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The monthly budget sums a user's cost since the first of the month before every model call.
CREATE INDEX model_usage_user_month_idx ON model_usage (user_id, created_at) INCLUDE (cost_usd);

CREATE TABLE step_cache (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- sha256 of the step text and the page it ran on (origin + path)
  cache_key text NOT NULL,
  step_text text NOT NULL,
  page_key text NOT NULL,
  -- the concrete actions, as step-language lines with role/label/text locators
  actions jsonb NOT NULL,
  engine text NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  healed integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, cache_key)
);

ALTER TABLE test_runs
  ADD COLUMN model_calls integer NOT NULL DEFAULT 0,
  ADD COLUMN input_tokens integer NOT NULL DEFAULT 0,
  ADD COLUMN output_tokens integer NOT NULL DEFAULT 0,
  ADD COLUMN cost_usd double precision NOT NULL DEFAULT 0;
