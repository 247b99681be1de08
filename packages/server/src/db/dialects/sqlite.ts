import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import type { DialectKit } from './types.js';

/** SQLite in WAL mode; `file` is a path or ':memory:'. */
export function sqliteKit(file: string): DialectKit {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return {
    name: 'sqlite',
    dialect: new SqliteDialect({ database }),
    idType: 'integer',
    idColumn: (col) => col.primaryKey().autoIncrement(),
  };
}
