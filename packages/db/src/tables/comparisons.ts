import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { ownerId } from './users';

// 0006_design_comparison, 0011_history, 0013_cascade_indexes.

export const designUploads = pgTable(
  'design_uploads',
  {
    id: id(),
    user_id: ownerId(),
    sha256: text('sha256').notNull(),
    thumbnail_sha256: text('thumbnail_sha256').notNull(),
    filename: text('filename').notNull(),
    content_type: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    thumbnail_bytes: integer('thumbnail_bytes').notNull().default(0),
    created_at: createdAt(),
  },
  // INCLUDE (size, thumbnail_bytes) in the migration.
  (t) => [index('design_uploads_user_idx').on(t.user_id)],
);

/** Per viewport, the stored images a comparison shows (comparison_images ids). */
export type ComparisonImagesRow = Record<
  string,
  { site: string; design: string; width: number; height: number }
>;

export const comparisons = pgTable(
  'comparisons',
  {
    id: id(),
    user_id: ownerId(),
    session_id: text('session_id'),
    comparison_type: text('comparison_type').notNull(),
    website_url: text('website_url').notNull(),
    figma_url: text('figma_url'),
    file_id: uuid('file_id').references(() => designUploads.id, { onDelete: 'set null' }),
    results: jsonb('results').$type<Record<string, unknown>>().notNull(),
    images: jsonb('images').$type<ComparisonImagesRow>().notNull().default({}),
    created_at: createdAt(),
  },
  (t) => [
    index('comparisons_user_session_idx').on(t.user_id, t.session_id, t.created_at.desc().nullsFirst()),
    index('comparisons_user_created_idx').on(
      t.user_id,
      t.created_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('comparisons_created_idx').on(t.created_at),
    // Deleting an upload sets file_id to NULL; retention asks which uploads a comparison names.
    index('comparisons_file_idx').on(t.file_id).where(sql`${t.file_id} IS NOT NULL`),
  ],
);

export const comparisonImages = pgTable(
  'comparison_images',
  {
    id: id(),
    user_id: ownerId(),
    sha256: text('sha256').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    created_at: createdAt(),
  },
  // INCLUDE (bytes) in the migration.
  (t) => [index('comparison_images_user_idx').on(t.user_id)],
);

export type DesignUploadRow = typeof designUploads.$inferSelect;
export type ComparisonRow = typeof comparisons.$inferSelect;
export type ComparisonImageRow = typeof comparisonImages.$inferSelect;
