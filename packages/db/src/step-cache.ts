import { and, eq, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { type StepCacheRow, stepCache } from './schema';

export interface StepCacheEntry {
  step_text: string;
  page_key: string;
  actions: string[];
  engine: string;
  /** Whether these actions replace ones that broke (self-healing). */
  healed: boolean;
}

/** Steps a model resolved, per owner: one user's cache never answers another's steps. */
export function stepCacheRepository(orm: Drizzle) {
  const owned = (userId: string, key: string) =>
    and(eq(stepCache.user_id, userId), eq(stepCache.cache_key, key));
  return {
    async get(userId: string, key: string): Promise<StepCacheRow | undefined> {
      const [row] = await orm.select().from(stepCache).where(owned(userId, key));
      return row;
    },
    async put(userId: string, key: string, entry: StepCacheEntry): Promise<void> {
      const values = {
        step_text: entry.step_text.slice(0, 4000),
        page_key: entry.page_key.slice(0, 2000),
        actions: entry.actions,
        engine: entry.engine,
        updated_at: new Date(),
      };
      await orm
        .insert(stepCache)
        .values({ user_id: userId, cache_key: key, ...values, healed: entry.healed ? 1 : 0 })
        .onConflictDoUpdate({
          target: [stepCache.user_id, stepCache.cache_key],
          set: { ...values, healed: entry.healed ? sql`${stepCache.healed} + 1` : stepCache.healed },
        });
    },
    async hit(userId: string, key: string): Promise<void> {
      await orm
        .update(stepCache)
        .set({ hits: sql`${stepCache.hits} + 1` })
        .where(owned(userId, key));
    },
    /** How many resolutions a user has cached. */
    async count(userId: string): Promise<number> {
      const [row] = await orm
        .select({ n: sql<number>`count(*)::int` })
        .from(stepCache)
        .where(eq(stepCache.user_id, userId));
      return row?.n ?? 0;
    },
  };
}
export type StepCacheRepository = ReturnType<typeof stepCacheRepository>;
