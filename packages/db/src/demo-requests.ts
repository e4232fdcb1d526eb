import { randomUUID } from 'node:crypto';
import { desc } from 'drizzle-orm';
import type { Drizzle } from './database';
import { type DemoRequestRow, demoRequests } from './schema';

export function demoRequestsRepository(orm: Drizzle) {
  return {
    async create(input: {
      name: string;
      email: string;
      company: string;
      message: string;
      client_ip: string | null;
    }): Promise<DemoRequestRow> {
      const [row] = await orm
        .insert(demoRequests)
        .values({ id: randomUUID(), ...input })
        .returning();
      return row;
    },
    async list(limit = 100): Promise<DemoRequestRow[]> {
      return orm.select().from(demoRequests).orderBy(desc(demoRequests.created_at)).limit(limit);
    },
  };
}
export type DemoRequestsRepository = ReturnType<typeof demoRequestsRepository>;
