-- Design comparison (issue 11): the design images users upload, the images a comparison shows (each
-- viewport's site capture and the design as it was compared), and each comparison's results, kept with
-- its session so a user can reopen it. Bytes live in the blob store (DATA_DIR/blobs, by SHA-256); rows
-- say whose they are, and every read is owner-scoped.

CREATE TABLE design_uploads (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  thumbnail_sha256 text NOT NULL,
  -- Sanitised; 'uploaded-design.png' when the client gave none.
  filename text NOT NULL,
  -- From the bytes (image/png | image/jpeg | image/gif | image/webp), never from the client.
  content_type text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  -- The image's bytes (the quota also counts thumbnail_bytes).
  size integer NOT NULL,
  thumbnail_bytes integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- MAX_STORED_BYTES_PER_USER sums these per owner.
CREATE INDEX design_uploads_user_idx ON design_uploads (user_id) INCLUDE (size, thumbnail_bytes);

CREATE TABLE comparisons (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The figma-comparison session it belongs to (a server session's id or a browser-only local_… id).
  session_id text,
  -- figma | image
  comparison_type text NOT NULL,
  website_url text NOT NULL,
  figma_url text,
  file_id uuid REFERENCES design_uploads (id) ON DELETE SET NULL,
  -- ComparisonResults (packages/protocol/src/comparison.ts); its viewport_images links are signed again
  -- from `images` whenever it is read, since links expire.
  results jsonb NOT NULL,
  -- {viewport: {site: image id, design: image id, width, height}}
  images jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comparisons_user_session_idx ON comparisons (user_id, session_id, created_at DESC);

CREATE TABLE comparison_images (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  bytes integer NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comparison_images_user_idx ON comparison_images (user_id) INCLUDE (bytes);
