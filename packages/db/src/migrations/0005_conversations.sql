-- Conversational mode (issue 10): a conversation with the live browser and its messages, kept so a
-- user can reopen a past conversation, read it, and save its actions as a test.

CREATE TABLE conversations (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The conversational session it belongs to (a server session's id or a browser-only local_… id).
  session_id text,
  title text NOT NULL,
  -- The page it started on.
  url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A user's conversations, newest first; and the conversation of one of their sessions.
CREATE INDEX conversations_user_created_idx ON conversations (user_id, created_at DESC, id DESC);
CREATE INDEX conversations_user_session_idx ON conversations (user_id, session_id);

CREATE TABLE conversation_messages (
  id uuid PRIMARY KEY,
  -- Order of arrival: a user's message and the reply to it can share a timestamp.
  seq integer GENERATED ALWAYS AS IDENTITY,
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- user | assistant | system
  role text NOT NULL,
  content text NOT NULL,
  -- [{action, message?, url?}]: the step-language lines a turn performed
  actions jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversation_messages_conversation_idx ON conversation_messages (conversation_id, seq);
CREATE INDEX conversation_messages_user_idx ON conversation_messages (user_id);
