import type { ColumnDefinitionBuilder, Dialect } from 'kysely';

/** What differs between SQLite and PostgreSQL; everything else is dialect-agnostic. */
export interface DialectKit {
  /** Dialect name. */
  name: 'sqlite' | 'postgres';
  /** Kysely dialect. */
  dialect: Dialect;
  /** Column type of an auto-increment integer id. */
  idType: 'integer' | 'serial';
  /**
   * How many group-commit batches (answer saves that arrive together, written in one transaction) may be in
   * flight at once. SQLite has one connection and one writer, so batches queue there anyway; on PostgreSQL
   * each batch holds a pooled connection, and a few lanes keep the pool free for other requests while the
   * saves that arrive meanwhile gather into the next batch.
   */
  groupCommitLanes: number;
  /** The connection pool now (metrics). */
  pool(): { total: number; idle?: number; waiting?: number };
  /** Turns a column into an auto-increment primary key. */
  idColumn(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}
