import type { ColumnDefinitionBuilder, Dialect } from 'kysely';

/** What differs between SQLite and PostgreSQL; everything else is dialect-agnostic. */
export interface DialectKit {
  /** Dialect name. */
  name: 'sqlite' | 'postgres';
  /** Kysely dialect. */
  dialect: Dialect;
  /** Column type of an auto-increment integer id. */
  idType: 'integer' | 'serial';
  /** Turns a column into an auto-increment primary key. */
  idColumn(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}
