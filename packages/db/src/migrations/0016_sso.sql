-- Single sign-on with OpenID Connect (docs/SSO.md): who a provider's account is here, the sign-ins
-- under way, and the one-time codes that hand a finished sign-in to the web app.

-- One provider account (its issuer and subject, the `iss` and `sub` of its ID tokens) is one user.
-- A user may have several (another issuer after a change of provider).
CREATE TABLE sso_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The verified email the provider gave at the last sign-in (for support; never used to sign in).
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX sso_identities_user_idx ON sso_identities (user_id);

-- A sign-in sent to the provider and not yet back: taken (deleted) by the callback that names its
-- state, so each is used once, by whichever process the callback reaches.
CREATE TABLE sso_flows (
  -- SHA-256 of the state, hex: the state itself travels in URLs.
  state_hash text PRIMARY KEY,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_flows_expires_idx ON sso_flows (expires_at);

-- A finished sign-in waiting for the web app to collect its login token (POST /api/auth/sso/exchange),
-- once, within a minute.
CREATE TABLE sso_handoffs (
  -- SHA-256 of the code, hex: the code itself is in the browser's cookie only.
  code_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_handoffs_expires_idx ON sso_handoffs (expires_at);
CREATE INDEX sso_handoffs_user_idx ON sso_handoffs (user_id);
