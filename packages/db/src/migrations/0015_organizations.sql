-- Organizations (docs/ORGANIZATIONS.md): an organization owns projects and everything they hold
-- (environments, variables, secrets, logins, suites, schedules, webhooks), the runs and history, and
-- its API tokens. Members hold a role in it (viewer < runner < editor < admin < owner).
--
-- Every user gets a personal organization WHOSE ID IS THE USER'S OWN ID. That is how this migration
-- moves what exists into its owner's personal organization without rewriting a row: the owner column
-- of the organization-owned tables (named user_id since 0001) already holds that id; only its foreign
-- key moves from users to organizations. In those tables user_id is the owning organization's id.

CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  -- A user's own organization, made at registration: it cannot be left, and has that user as owner.
  personal boolean NOT NULL DEFAULT false,
  -- An email domain the organization claims: users signing in through SSO with it join with sso_role.
  sso_domain text,
  sso_role text NOT NULL DEFAULT 'viewer' CHECK (sso_role IN ('viewer', 'runner', 'editor', 'admin')),
  -- Members must sign in through SSO: a password sign-in is refused, saying why.
  sso_required boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organizations_sso_domain_key ON organizations (lower(sso_domain)) WHERE sso_domain IS NOT NULL;

CREATE TABLE memberships (
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('viewer', 'runner', 'editor', 'admin', 'owner')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id, org_id);

-- A one-time link to join an organization with a role; only the link's hash is kept.
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'runner', 'editor', 'admin', 'owner')),
  token_hash text NOT NULL UNIQUE,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
  revoked_at timestamptz
);
CREATE INDEX invitations_org_idx ON invitations (org_id, created_at DESC);

-- A service account: a user row that is no person (an organization's service token acts as it, with
-- its membership's role). It cannot sign in with a password and is listed apart from people.
ALTER TABLE users ADD COLUMN service boolean NOT NULL DEFAULT false;

INSERT INTO organizations (id, name, personal, created_at, updated_at)
SELECT id, username, true, created_at, created_at FROM users;
INSERT INTO memberships (org_id, user_id, role, created_at)
SELECT id, id, 'owner', created_at FROM users;

-- The owner columns of organization-owned tables now name an organization.
ALTER TABLE projects DROP CONSTRAINT projects_user_id_fkey;
ALTER TABLE projects ADD CONSTRAINT projects_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE test_runs DROP CONSTRAINT test_runs_user_id_fkey;
ALTER TABLE test_runs ADD CONSTRAINT test_runs_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE test_results DROP CONSTRAINT test_results_user_id_fkey;
ALTER TABLE test_results ADD CONSTRAINT test_results_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE screenshots DROP CONSTRAINT screenshots_user_id_fkey;
ALTER TABLE screenshots ADD CONSTRAINT screenshots_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE step_cache DROP CONSTRAINT step_cache_user_id_fkey;
ALTER TABLE step_cache ADD CONSTRAINT step_cache_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE schedules DROP CONSTRAINT schedules_user_id_fkey;
ALTER TABLE schedules ADD CONSTRAINT schedules_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_user_id_fkey;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_user_id_fkey;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE analytics_days DROP CONSTRAINT analytics_days_user_id_fkey;
ALTER TABLE analytics_days ADD CONSTRAINT analytics_days_org_fkey FOREIGN KEY (user_id) REFERENCES organizations (id) ON DELETE CASCADE;

-- Who started a run. Null for the runs from before this migration (not backfilled: an UPDATE of every
-- run would fire the analytics triggers on a year of history): their organization is personal, so
-- its id, user_id, is the user who started them.
ALTER TABLE test_runs ADD COLUMN started_by uuid REFERENCES users (id) ON DELETE SET NULL;

-- An API token belongs to an organization; user_id is the member (or service account) it acts as.
ALTER TABLE api_tokens ADD COLUMN org_id uuid REFERENCES organizations (id) ON DELETE CASCADE;
UPDATE api_tokens SET org_id = user_id;
ALTER TABLE api_tokens ALTER COLUMN org_id SET NOT NULL;
CREATE INDEX api_tokens_org_idx ON api_tokens (org_id, created_at DESC);
