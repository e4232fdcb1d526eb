import { timestamp, uuid } from 'drizzle-orm/pg-core';

// The column shapes most tables share, written once: each call makes a new column builder.

/** A point in time, with its time zone (timestamptz), as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The row's own id (the server makes it: no database default). */
export const id = () => uuid('id').primaryKey();

/** When the row was made. */
export const createdAt = () => at('created_at').notNull().defaultNow();

/** When the row was made and last changed. */
export const timestamps = () => ({
  created_at: createdAt(),
  updated_at: at('updated_at').notNull().defaultNow(),
});
