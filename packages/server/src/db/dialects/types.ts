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
   * Whether concurrent small writes should share one transaction. SQLite has one writer and pays for each
   * commit; PostgreSQL commits many connections' transactions in one flush by itself.
   */
  groupCommit: boolean;
  /** The connection pool now (metrics). */
  pool(): { total: number; idle?: number; waiting?: number };
  /** Turns a column into an auto-increment primary key. */
  idColumn(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}
