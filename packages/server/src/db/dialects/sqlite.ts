import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import type { DialectKit } from './types.js';

/**
 * Prepared statements are kept per SQL text: the same few queries run for every request, and preparing
 * one costs about as much as running it.
 */
function withStatementCache(database: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, prop, receiver) {
      if (prop === 'prepare') {
        return (sql: string) => {
          let stmt = cache.get(sql);
          if (!stmt) {
            stmt = prepare(sql);
            if (cache.size < 1000) cache.set(sql, stmt);
          }
          return stmt;
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** SQLite in WAL mode; `file` is a path or ':memory:'. */
export function sqliteKit(file: string): DialectKit {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // WAL with NORMAL survives a crash of the process (the data is in the WAL file); only a power cut can lose the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return {
    name: 'sqlite',
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    idType: 'integer',
    groupCommit: true,
    idColumn: (col) => col.primaryKey().autoIncrement(),
  };
}
