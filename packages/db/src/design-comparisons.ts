import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import {
  type ComparisonImageRow,
  type ComparisonImagesRow,
  type ComparisonRow,
  comparisonImages,
  comparisons,
  type DesignUploadRow,
  designUploads,
} from './schema';

export type NewDesignUpload = Omit<DesignUploadRow, 'id' | 'user_id' | 'created_at'>;
export type NewComparisonImage = Omit<ComparisonImageRow, 'id' | 'user_id' | 'created_at'>;
export interface NewComparison {
  session_id: string | null;
  comparison_type: 'figma' | 'image';
  website_url: string;
  figma_url: string | null;
  file_id: string | null;
  results: Record<string, unknown>;
  images: ComparisonImagesRow;
}

/** One line of the user's past comparisons: the latest comparison of a session. */
export interface ComparisonSummaryRow {
  id: string;
  session_id: string;
  comparison_type: 'figma' | 'image';
  website_url: string;
  figma_url: string | null;
  /** The uploaded design's name; null for Figma, or when the upload is gone. */
  filename: string | null;
  overall_similarity: number;
  quality_rating: string;
  created_at: Date;
}

/**
 * Design uploads, the images comparisons show, and comparisons' results. Every call takes the owner's
 * id: another user's upload, image or comparison does not exist for you.
 */
export function designComparisonsRepository(orm: Drizzle) {
  const uploads = ownedRows(orm, designUploads);
  const images = ownedRows(orm, comparisonImages);
  const results = ownedRows(orm, comparisons);
  return {
    addUpload: (userId: string, input: NewDesignUpload): Promise<DesignUploadRow> =>
      uploads.add(userId, input),
    upload: (userId: string, id: string): Promise<DesignUploadRow | undefined> => uploads.get(userId, id),
    addImage: (userId: string, input: NewComparisonImage): Promise<ComparisonImageRow> =>
      images.add(userId, input),
    image: (userId: string, id: string): Promise<ComparisonImageRow | undefined> => images.get(userId, id),
    addComparison: (userId: string, input: NewComparison): Promise<ComparisonRow> =>
      results.add(userId, input),
    /** The user's latest comparison of one session, if any. */
    async latestForSession(userId: string, sessionId: string): Promise<ComparisonRow | undefined> {
      const [row] = await orm
        .select()
        .from(comparisons)
        .where(and(eq(comparisons.user_id, userId), eq(comparisons.session_id, sessionId)))
        .orderBy(desc(comparisons.created_at), desc(comparisons.id))
        .limit(1);
      return row;
    },
    /**
     * The latest comparison of each of the user's sessions, newest first, at most `limit`: what a list
     * of past comparisons shows (the upload's filename; the score read from the stored results).
     */
    async listLatest(
      userId: string,
      { limit = 50 }: { limit?: number } = {},
    ): Promise<ComparisonSummaryRow[]> {
      const latest = orm
        .selectDistinctOn([comparisons.session_id], {
          id: comparisons.id,
          session_id: comparisons.session_id,
          comparison_type: comparisons.comparison_type,
          website_url: comparisons.website_url,
          figma_url: comparisons.figma_url,
          file_id: comparisons.file_id,
          overall_similarity: sql<string | null>`${comparisons.results}->>'overall_similarity'`.as(
            'overall_similarity',
          ),
          quality_rating: sql<string | null>`${comparisons.results}->>'quality_rating'`.as('quality_rating'),
          created_at: comparisons.created_at,
        })
        .from(comparisons)
        .where(and(eq(comparisons.user_id, userId), isNotNull(comparisons.session_id)))
        .orderBy(comparisons.session_id, desc(comparisons.created_at), desc(comparisons.id))
        .as('latest');
      const rows = await orm
        .select({
          id: latest.id,
          session_id: latest.session_id,
          comparison_type: latest.comparison_type,
          website_url: latest.website_url,
          figma_url: latest.figma_url,
          overall_similarity: latest.overall_similarity,
          quality_rating: latest.quality_rating,
          created_at: latest.created_at,
          filename: designUploads.filename,
        })
        .from(latest)
        .leftJoin(designUploads, and(eq(designUploads.id, latest.file_id), eq(designUploads.user_id, userId)))
        .orderBy(desc(latest.created_at), desc(latest.id))
        .limit(limit);
      return rows.map((row) => {
        const similarity = row.overall_similarity === null ? Number.NaN : Number(row.overall_similarity);
        return {
          id: row.id,
          session_id: row.session_id ?? '',
          comparison_type: row.comparison_type === 'figma' ? 'figma' : 'image',
          website_url: row.website_url,
          figma_url: row.figma_url,
          filename: row.filename ?? null,
          overall_similarity: Number.isFinite(similarity) ? similarity : 0,
          quality_rating: row.quality_rating ?? 'Poor',
          created_at: row.created_at,
        };
      });
    },
    /** Bytes of the user's uploads (with thumbnails) and comparison images, for MAX_STORED_BYTES_PER_USER. */
    async storedBytes(userId: string): Promise<number> {
      const [uploads] = await orm
        .select({
          total: sql<string | number | null>`sum(${designUploads.size} + ${designUploads.thumbnail_bytes})`,
        })
        .from(designUploads)
        .where(eq(designUploads.user_id, userId));
      const [images] = await orm
        .select({ total: sql<string | number | null>`sum(${comparisonImages.bytes})` })
        .from(comparisonImages)
        .where(eq(comparisonImages.user_id, userId));
      return Number(uploads?.total ?? 0) + Number(images?.total ?? 0);
    },
  };
}
export type DesignComparisonsRepository = ReturnType<typeof designComparisonsRepository>;
