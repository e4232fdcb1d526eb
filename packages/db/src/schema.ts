// The Drizzle tables, mirroring src/migrations/*.sql, which are the source of truth for the database
// itself; these give the repositories typed queries. schema.test.ts fails when the two disagree
// (columns, types, nullability, defaults, indexes, keys), naming what differs.
export * from './tables/accounts';
export * from './tables/audit';
export * from './tables/comparisons';
export * from './tables/conversations';
export * from './tables/organizations';
export * from './tables/projects';
export * from './tables/repairs';
export * from './tables/runs';
export * from './tables/schedules';
export * from './tables/sso';
export * from './tables/suite-comparisons';
// Not ownerId, a column shape: the schema's exports are its tables and row types.
export { type UserRow, users } from './tables/users';
export * from './tables/visual';
