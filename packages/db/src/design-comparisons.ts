import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import {
  type ComparisonImageRow,
  type ComparisonImagesRow,
  type ComparisonRow,
  comparisonImages,
  comparisons,
  type DesignUploadRow,
  designUploads,
} from './schema';
import { isUuid } from './users';

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

/**
 * Design uploads, the images comparisons show, and comparisons' results. Every call takes the owner's
 * id: another user's upload, image or comparison does not exist for you.
 */
export function designComparisonsRepository(orm: Drizzle) {
  return {
    async addUpload(userId: string, input: NewDesignUpload): Promise<DesignUploadRow> {
      const [row] = await orm
        .insert(designUploads)
        .values({ ...input, id: randomUUID(), user_id: userId })
        .returning();
      return row;
    },
    async upload(userId: string, id: string): Promise<DesignUploadRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm
        .select()
        .from(designUploads)
        .where(and(eq(designUploads.id, id), eq(designUploads.user_id, userId)));
      return row;
    },
    async addImage(userId: string, input: NewComparisonImage): Promise<ComparisonImageRow> {
      const [row] = await orm
        .insert(comparisonImages)
        .values({ ...input, id: randomUUID(), user_id: userId })
        .returning();
      return row;
    },
    async image(userId: string, id: string): Promise<ComparisonImageRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm
        .select()
        .from(comparisonImages)
        .where(and(eq(comparisonImages.id, id), eq(comparisonImages.user_id, userId)));
      return row;
    },
    async addComparison(userId: string, input: NewComparison): Promise<ComparisonRow> {
      const [row] = await orm
        .insert(comparisons)
        .values({ ...input, id: randomUUID(), user_id: userId })
        .returning();
      return row;
    },
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
