import { eq, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { type UserSettingsRow, userSettings } from './schema';
import { isUuid } from './users';

/**
 * A change to a user's settings: a field left out keeps its value, `null` clears it. Secrets arrive
 * already encrypted (`*_enc`, by the server's secrets service) with their display hint (`*_last4`:
 * at most the last four characters, e.g. 'sk-…a1b2'); this repository never sees a secret in clear.
 */
export type UserSettingsPatch = Partial<Omit<UserSettingsRow, 'user_id' | 'updated_at'>>;

/** One row per user, made on the first change; every call takes the owner's id. */
export function userSettingsRepository(orm: Drizzle) {
  return {
    /** The user's settings, or undefined when they never changed any. */
    async get(userId: string): Promise<UserSettingsRow | undefined> {
      if (!isUuid(userId)) return undefined;
      const [row] = await orm.select().from(userSettings).where(eq(userSettings.user_id, userId));
      return row;
    },
    /** Applies `patch` in one statement (insert or update), and answers the whole row. */
    async upsert(userId: string, patch: UserSettingsPatch): Promise<UserSettingsRow> {
      const values = Object.fromEntries(
        Object.entries(patch).filter(([, value]) => value !== undefined),
      ) as UserSettingsPatch;
      const [row] = await orm
        .insert(userSettings)
        .values({ ...values, user_id: userId })
        .onConflictDoUpdate({ target: userSettings.user_id, set: { ...values, updated_at: sql`now()` } })
        .returning();
      return row;
    },
  };
}
export type UserSettingsRepository = ReturnType<typeof userSettingsRepository>;
