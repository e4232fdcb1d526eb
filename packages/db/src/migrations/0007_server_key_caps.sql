-- The operator's caps on the server's own model key (issue 17): which calls were paid with the
-- server's AI_API_KEY (summed per user and for everyone, per calendar month) and which had no known
-- price (their cost_usd of 0 means "unknown", not "free").
ALTER TABLE model_usage
  ADD COLUMN server_key boolean NOT NULL DEFAULT false,
  ADD COLUMN cost_known boolean NOT NULL DEFAULT true;
-- The total cap sums every user's server-key cost since the first of the month before each call.
CREATE INDEX model_usage_server_key_month_idx ON model_usage (created_at) INCLUDE (cost_usd) WHERE server_key;
