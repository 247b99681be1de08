import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { DialectKit } from './types.js';

/**
 * Prepared statements are kept per SQL text: the same few queries run for every request, and preparing
 * one costs about as much as running it.
 */
class StatementCache {
  private readonly cache = new Map<string, SQLite.Statement>();

  constructor(readonly database: SQLite.Database) {}

  prepare(sql: string): SQLite.Statement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.database.prepare(sql);
      if (this.cache.size < 1000) this.cache.set(sql, stmt);
    }
    return stmt;
  }

  /** The database as Kysely's driver sees it, preparing through the cache. */
  asDatabase(): SQLite.Database {
    return new Proxy(this.database, {
      get: (target, prop, receiver) => {
        if (prop === 'prepare') return (sql: string) => this.prepare(sql);
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}

/** The statement cache behind each SQLite adapter; the adapter is the one public thing a Kysely instance shows. */
const connections = new WeakMap<DialectAdapter, StatementCache>();

/** SqliteDialect that remembers which connection its adapter belongs to. */
class DirectSqliteDialect extends SqliteDialect {
  constructor(private readonly statements: StatementCache) {
    super({ database: statements.asDatabase() });
  }

  override createAdapter(): DialectAdapter {
    const adapter = new SqliteAdapter();
    connections.set(adapter, this.statements);
    return adapter;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.statements.asDatabase() });
  }
}

/** How long a statement waits for SQLite's one writer (another process's transaction) before it fails. */
export const BUSY_WAIT_MS = 5_000;
/** The longest pause between two tries of a statement that found the writer busy, ms. */
const BUSY_PAUSE_MAX_MS = 8;

/**
 * True for SQLite's answer that another connection holds the lock a statement needs. Such a statement did nothing
 * and may be run again; so may a COMMIT. (A deferred transaction's stale snapshot, SQLITE_BUSY_SNAPSHOT, may not:
 * no transaction here is deferred.)
 */
export function isSqliteBusy(err: unknown): boolean {
  return (
    err instanceof SQLite.SqliteError &&
    (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_BUSY_RECOVERY' || err.code === 'SQLITE_BUSY_TIMEOUT')
  );
}

/**
 * Runs a statement, and while SQLite answers that the writer is busy runs it again after a pause (1 ms, doubling to
 * 8 ms), for at most BUSY_WAIT_MS. The pauses are the event loop's: better-sqlite3 runs statements synchronously, so
 * SQLite's own busy handler (busy_timeout) would sleep in the process's one thread, and every call of an API
 * process would stop while another process (the worker storing an import) held the writer.
 */
async function waitOutBusy<T>(run: () => Promise<T>): Promise<T> {
  const until = Date.now() + BUSY_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, BUSY_PAUSE_MAX_MS)) {
    try {
      return await run();
    } catch (err) {
      if (!isSqliteBusy(err) || Date.now() >= until) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** The connection with every statement run through {@link waitOutBusy}. */
class PatientConnection implements DatabaseConnection {
  constructor(private readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return waitOutBusy(() => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Transactions that take the write lock when they begin, and statements that wait for it without blocking. Several
 * processes write to one file under the supervisor: a deferred transaction that read first and then writes after
 * another process committed fails at once with SQLITE_BUSY (its snapshot is stale, and waiting cannot help), where
 * an immediate one waits its turn like any other writer, asynchronously (PatientConnection).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  private readonly patient = new WeakMap<DatabaseConnection, PatientConnection>();

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    let patient = this.patient.get(connection);
    if (!patient) this.patient.set(connection, (patient = new PatientConnection(connection)));
    return patient;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** What {@link runDirect} needs of a Kysely instance or transaction. */
interface KyselyLike {
  getExecutor(): { adapter: DialectAdapter };
  readonly isTransaction: boolean;
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/**
 * Runs a compiled query at once on the SQLite connection behind `db`, as Kysely's own SQLite driver
 * would, but without its per-query plumbing (connection mutex, promise chain): returns null when that is
 * not possible, and the caller then goes through Kysely. better-sqlite3 runs a statement synchronously,
 * so the only thing to respect is the one connection's transaction: a query is run directly when `db` is
 * the transaction holding the connection, or when no transaction is open at all (then it is an
 * autocommit statement exactly as Kysely would run it). While some other transaction holds the connection
 * the query must wait its turn through Kysely, or it would become part of that transaction.
 */
export function runDirect<R>(db: KyselyLike, query: CompiledQuery<R>): QueryResult<R> | null {
  const statements = connections.get(db.getExecutor().adapter);
  if (!statements || (!db.isTransaction && statements.database.inTransaction)) return null;
  const stmt = statements.prepare(query.sql);
  const parameters = query.parameters as unknown[];
  try {
    if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  } catch (err) {
    // The writer is another process's for now: the statement did nothing, and Kysely's path waits for it.
    if (!db.isTransaction && isSqliteBusy(err)) return null;
    throw err;
  }
}

interface Gathered {
  db: KyselyLike;
  query: CompiledQuery;
  resolve: (result: QueryResult<unknown>) => void;
  reject: (err: unknown) => void;
}
let gathered: Gathered[] = [];

/** Runs the gathered reads back to back; each one that cannot run directly now goes through Kysely. */
function runGathered(): void {
  const batch = gathered;
  gathered = [];
  for (const item of batch) {
    try {
      const result = runDirect(item.db, item.query);
      if (result) item.resolve(result);
      else item.db.executeQuery(item.query).then(item.resolve, item.reject);
    } catch (err) {
      item.reject(err);
    }
  }
}

/**
 * Like {@link runDirect}, for a read that may wait for the end of this turn of the event loop: the reads
 * of all requests that arrived together then run back to back. Measured in the server under load, the
 * first statement after a stretch of other work costs several times what the same statement costs right
 * after another (the CPU's caches hold the HTTP and JavaScript work by then, not SQLite's code and pages),
 * and the candidate lookup of every request was such a first statement. Returns null where the query
 * cannot run directly at all (PostgreSQL, or inside a transaction).
 */
export function runDirectSoon<R>(db: KyselyLike, query: CompiledQuery<R>): Promise<QueryResult<R>> | null {
  if (db.isTransaction || !connections.has(db.getExecutor().adapter)) return null;
  return new Promise<QueryResult<R>>((resolve, reject) => {
    if (gathered.length === 0) setImmediate(runGathered);
    gathered.push({ db, query, resolve: resolve as Gathered['resolve'], reject });
  });
}

/**
 * Who copies the WAL's pages back into the database file. SQLite's default is whoever commits past 1,000 pages
 * (`on-commit`): in the embedded default that is as often a candidate's save, which then pays for copying 4 MB and
 * syncing the file. There the API processes leave it to others (`elsewhere`) and the worker does it every second
 * from its own connection (`timer`), a passive checkpoint that waits for no reader and no writer.
 */
export type WalCheckpoints = 'on-commit' | 'elsewhere' | 'timer';

/** How often the worker checkpoints the WAL (`timer`). */
export const CHECKPOINT_EVERY_MS = 1000;

/**
 * The WAL's length (frames, 4 KB each: 256 MB) past which the worker's checkpoint also starts the log again from
 * its beginning. A passive checkpoint alone never does under exam load: the log starts again only when a writer
 * begins with every frame copied back, and with saves committing all the time one always lands while the copy
 * runs. Measured in `bench:exam --staff-load`, the WAL grew by 6 MB a second through a 2,000-candidate exam and
 * reached 1 GB; a two-hour exam of 19,000 would fill the disk. Past this length the worker copies everything
 * while holding the writer (a FULL checkpoint), so the next commit finds the log copied back and starts it again.
 * That is a pause for every save (the copy since the passive checkpoint before it, and the file's sync), so it
 * comes seldom: a WAL of 1 GB read as fast as a short one in that bench. SQLite's RESTART would also hold the
 * writer until every reader left the WAL, with thousands of candidates reading, always its whole wait.
 */
export const WAL_RESTART_FRAMES = 65_536;
/** How long that checkpoint may wait for the writer and for readers of older frames before the next tick. */
const RESTART_WAIT_MS = 50;
/** The WAL file's size kept on disk after a restart (SQLite otherwise keeps its largest size). */
const WAL_KEPT_BYTES = WAL_RESTART_FRAMES * 4096;

/** The timer's checkpoint policy; tests choose shorter periods and lengths. */
export interface CheckpointTimer {
  everyMs: number;
  restartFrames: number;
}

/** SQLite in WAL mode; `file` is a path or ':memory:'. */
export function sqliteKit(
  file: string,
  checkpoints: WalCheckpoints = 'on-commit',
  timer: CheckpointTimer = { everyMs: CHECKPOINT_EVERY_MS, restartFrames: WAL_RESTART_FRAMES },
): DialectKit {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // WAL with NORMAL survives a crash of the process (the data is in the WAL file); only a power cut can lose the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // No wait inside SQLite: a statement that finds the writer busy is tried again from the event loop (waitOutBusy).
  database.pragma('busy_timeout = 0');
  database.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  if (checkpoints !== 'on-commit') database.pragma('wal_autocheckpoint = 0');
  if (checkpoints === 'timer') {
    const every = setInterval(() => {
      if (!database.open) return clearInterval(every);
      // A transaction of this connection spans awaits (a job's), and SQLite refuses a checkpoint inside it.
      if (database.inTransaction) return;
      try {
        checkpointTick(database, timer.restartFrames);
      } catch (err) {
        // Another connection's checkpoint, a busy moment or a statement of this one still open: the next tick
        // tries again.
        if (!isSqliteBusy(err) && !(err instanceof SQLite.SqliteError && err.code === 'SQLITE_LOCKED')) throw err;
      }
    }, timer.everyMs);
    every.unref();
  }
  return {
    name: 'sqlite',
    dialect: new DirectSqliteDialect(new StatementCache(database)),
    idType: 'integer',
    groupCommitLanes: Infinity,
    // One connection, no pool: only its count means anything.
    pool: () => ({ total: database.open ? 1 : 0 }),
    idColumn: (col) => col.primaryKey().autoIncrement(),
  };
}

/**
 * One tick of the worker's checkpoints: a passive one, which copies what it can and waits for nobody; then, once
 * the WAL is longer than `restartFrames`, a full one, which copies only what was committed meanwhile and lets
 * the next commit start the log again (this thread being the worker's, it may wait a moment: the API processes
 * wait for the writer from their event loops).
 */
function checkpointTick(database: SQLite.Database, restartFrames: number): void {
  const [passive] = database.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  if (!passive || passive.log < restartFrames) return;
  database.pragma(`busy_timeout = ${RESTART_WAIT_MS}`);
  try {
    database.pragma('wal_checkpoint(FULL)');
  } finally {
    database.pragma('busy_timeout = 0');
  }
}
