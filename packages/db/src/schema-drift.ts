import { is, SQL, sql } from 'drizzle-orm';
import { getTableConfig, type IndexedColumn, PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database';

// schema.test.ts's tools: whether schema.ts still says what the migrations made. Rather than teach a
// comparison every way PostgreSQL may spell a type, a default or an index, schema.ts's tables are
// created again, as DDL, in a schema of their own beside the migrated one; then both are read back
// from the same catalog queries, so PostgreSQL has spelled both sides the same way.

/** One table as the catalog tells it: each part keyed by what names it, valued by its definition. */
export interface CatalogTable {
  /** Column name → type, nullability, default and identity, e.g. `text NOT NULL DEFAULT 'web'::text`. */
  columns: Record<string, string>;
  /** Index name → definition, e.g. `CREATE INDEX x ON t USING btree (a, b DESC)` (constraints' apart). */
  indexes: Record<string, string>;
  /** Primary key, unique, foreign key and check constraints, by definition. */
  constraints: string[];
}
export type Catalog = Record<string, CatalogTable>;

/** The DDL that makes `tables` (schema.ts's) in `schemaName`: tables, then foreign keys, then indexes. */
export function tablesDdl(tables: PgTable[], schemaName: string): string {
  const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const qualified = (table: PgTable) => `${q(schemaName)}.${q(getTableConfig(table).name)}`;
  const statements: string[] = [`CREATE SCHEMA ${q(schemaName)};`];
  const later: string[] = [];
  for (const table of tables) {
    const config = getTableConfig(table);
    const parts = config.columns.map((column) => columnDdl(column));
    for (const pk of config.primaryKeys)
      parts.push(`PRIMARY KEY (${pk.columns.map((c) => q(c.name)).join(', ')})`);
    for (const unique of config.uniqueConstraints)
      parts.push(`UNIQUE (${unique.columns.map((c) => q(c.name)).join(', ')})`);
    for (const check of config.checks)
      parts.push(`CONSTRAINT ${q(check.name)} CHECK (${render(check.value)})`);
    statements.push(`CREATE TABLE ${qualified(table)} (\n  ${parts.join(',\n  ')}\n);`);
    for (const fk of config.foreignKeys) {
      const { columns, foreignColumns, foreignTable } = fk.reference();
      later.push(
        `ALTER TABLE ${qualified(table)} ADD FOREIGN KEY (${columns.map((c) => q(c.name)).join(', ')}) ` +
          `REFERENCES ${qualified(foreignTable)} (${foreignColumns.map((c) => q(c.name)).join(', ')})` +
          ` ON DELETE ${(fk.onDelete ?? 'no action').toUpperCase()};`,
      );
    }
    for (const { config: index } of config.indexes) {
      const keys = index.columns.map((c) =>
        is(c, SQL) ? `(${render(c)})` : indexedColumnDdl(c as Partial<IndexedColumn>),
      );
      later.push(
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${q(index.name ?? '')} ON ${qualified(table)}` +
          ` USING ${index.method ?? 'btree'} (${keys.join(', ')})` +
          (index.where ? ` WHERE ${render(index.where)}` : '') +
          ';',
      );
    }
  }
  return [...statements, ...later].join('\n');
}

function columnDdl(column: PgColumn): string {
  let ddl = `"${column.name}" ${column.getSQLType()}`;
  if (column.generatedIdentity)
    ddl += ` GENERATED ${column.generatedIdentity.type.toUpperCase()} AS IDENTITY`;
  if (column.notNull) ddl += ' NOT NULL';
  if (column.default !== undefined) ddl += ` DEFAULT ${literal(column.default, column.getSQLType())}`;
  if (column.primary) ddl += ' PRIMARY KEY';
  if (column.isUnique) ddl += ' UNIQUE';
  return ddl;
}

function indexedColumnDdl(column: Partial<IndexedColumn>): string {
  const { order, nulls, opClass } = column.indexConfig ?? {};
  return [`"${column.name}"`, opClass, order?.toUpperCase(), nulls ? `NULLS ${nulls.toUpperCase()}` : '']
    .filter(Boolean)
    .join(' ');
}

/** A default as SQL: a JSON column's value becomes a jsonb literal, a string a quoted one. */
function literal(value: unknown, type: string): string {
  if (is(value, SQL)) return render(value);
  if (type === 'jsonb' || type === 'json') return `'${JSON.stringify(value).replaceAll("'", "''")}'::${type}`;
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  return String(value);
}

/** A Drizzle SQL fragment as text, a column as its bare name (as index and check expressions need). */
function render(fragment: SQL): string {
  return fragment.queryChunks
    .map((chunk) => {
      if (is(chunk, SQL)) return render(chunk);
      if (is(chunk, PgColumn)) return `"${chunk.name}"`;
      if (chunk && typeof chunk === 'object' && 'value' in chunk) {
        const { value } = chunk as { value: unknown };
        return Array.isArray(value) ? value.join('') : literal(value, typeof value);
      }
      return literal(chunk, typeof chunk);
    })
    .join('');
}

/** Every table of `schemaName` but those in `skip`, read from the catalog. */
export async function readCatalog(db: Database, schemaName: string, skip: string[] = []): Promise<Catalog> {
  const rows = async <T>(query: SQL) => ((await db.orm.execute(query)) as unknown as { rows: T[] }).rows;
  // Both sides print their own schema's name in definitions (`ON public.users`); it is not compared.
  const local = (text: string) => text.replaceAll(`${schemaName}.`, '').replaceAll('public.', '');
  const catalog: Catalog = {};
  const tables = await rows<{ name: string }>(sql`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schemaName} AND c.relkind = 'r' ORDER BY 1`);
  for (const { name } of tables)
    if (!skip.includes(name)) catalog[name] = { columns: {}, indexes: {}, constraints: [] };
  const table = (name: string) => catalog[name] as CatalogTable | undefined;

  for (const c of await rows<{ tbl: string; col: string; def: string }>(sql`
    SELECT c.relname AS tbl, a.attname AS col,
      format_type(a.atttypid, a.atttypmod)
        || CASE a.attidentity WHEN 'a' THEN ' GENERATED ALWAYS AS IDENTITY'
             WHEN 'd' THEN ' GENERATED BY DEFAULT AS IDENTITY' ELSE '' END
        || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
        || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') AS def
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = ${schemaName} AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`)) {
    const t = table(c.tbl);
    if (t) t.columns[c.col] = c.def;
  }

  for (const i of await rows<{ tbl: string; name: string; def: string }>(sql`
    SELECT c.relname AS tbl, ic.relname AS name, pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schemaName}
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)`)) {
    const t = table(i.tbl);
    // Drizzle cannot declare an index's INCLUDE columns, so they are the migrations' alone.
    if (t) t.indexes[i.name] = local(i.def).replace(/ INCLUDE \([^)]*\)/, '');
  }

  for (const k of await rows<{ tbl: string; def: string }>(sql`
    SELECT c.relname AS tbl, pg_get_constraintdef(k.oid) AS def
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schemaName} AND k.contype IN ('p', 'u', 'f', 'c')`)) {
    table(k.tbl)?.constraints.push(local(k.def));
  }
  for (const t of Object.values(catalog)) t.constraints.sort();
  return catalog;
}

/**
 * What differs between the migrated database and schema.ts's tables, one line per difference naming
 * the table and the column, index or constraint, e.g. `users.email: text NOT NULL in the migrations,
 * integer NOT NULL in schema.ts`. Empty when they agree.
 */
export function catalogDiff(migrated: Catalog, declared: Catalog): string[] {
  const differences: string[] = [];
  const names = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const compare = (where: string, inMigrations: string | undefined, inSchema: string | undefined) => {
    if (inMigrations === inSchema) return;
    differences.push(
      `${where}: ${inMigrations ?? 'absent'} in the migrations, ${inSchema ?? 'absent'} in schema.ts`,
    );
  };
  for (const name of names(migrated, declared)) {
    const a = migrated[name];
    const b = declared[name];
    if (!a || !b) {
      differences.push(`table ${name}: ${a ? 'not declared in schema.ts' : 'not made by any migration'}`);
      continue;
    }
    for (const column of names(a.columns, b.columns))
      compare(`${name}.${column}`, a.columns[column], b.columns[column]);
    for (const index of names(a.indexes, b.indexes))
      compare(`${name} index ${index}`, a.indexes[index], b.indexes[index]);
    for (const def of a.constraints)
      if (!b.constraints.includes(def)) compare(`${name} constraint`, def, undefined);
    for (const def of b.constraints)
      if (!a.constraints.includes(def)) compare(`${name} constraint`, undefined, def);
  }
  return differences;
}
