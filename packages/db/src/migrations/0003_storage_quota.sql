-- MAX_STORED_BYTES_PER_USER sums a user's screenshot bytes before each upload and run: an index on
-- the owner that carries the size answers it without reading the table.
CREATE INDEX screenshots_user_bytes_idx ON screenshots (user_id) INCLUDE (bytes);
