-- Accounts, sessions and demo requests (platform foundation).
CREATE TABLE users (
  id uuid PRIMARY KEY,
  username text NOT NULL,
  email text NOT NULL,
  full_name text,
  password_hash text NOT NULL,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Usernames and emails are unique whatever their case: 'Alice' and 'alice' are one account.
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_type text NOT NULL,
  title text NOT NULL,
  url text,
  status text NOT NULL DEFAULT 'ACTIVE',
  description text,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_created_idx ON sessions (user_id, created_at DESC);

CREATE TABLE demo_requests (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  company text NOT NULL,
  message text NOT NULL DEFAULT '',
  client_ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
