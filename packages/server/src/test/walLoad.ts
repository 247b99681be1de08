/**
 * A process that loads an SQLite file the way the API processes do on exam day, for the WAL test in
 * `db/dialects/sqlite.test.ts`: `write` commits groups of ten 3 KB rows a quarter of a millisecond apart, `read`
 * runs a short read after another, from WAL_LOAD_START to WAL_LOAD_END (epoch ms). Prints "ready", then its count.
 */
import SQLite from 'better-sqlite3';

const [file, role] = process.argv.slice(2) as [string, 'write' | 'read'];
const start = Number(process.env.WAL_LOAD_START);
const end = Number(process.env.WAL_LOAD_END);
const db = new SQLite(file);
// Like an API process: it never checkpoints; the test's connection does. It waits for the writer inside SQLite
// here, where the server waits from its event loop: either way a commit waits while a restart holds the writer.
db.pragma('wal_autocheckpoint = 0');
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const insert = db.prepare('insert into t (v) values (?)');
// A group commit's worth of saves in one transaction.
const commitGroup = db.transaction(() => {
  for (let i = 0; i < 10; i++) insert.run(Buffer.alloc(3000, 7));
});
const read = db.prepare('select sum(length(v)) from (select v from t order by id desc limit 200)');
const pause = new Int32Array(new SharedArrayBuffer(4));
const pauseMs = 0.25;
const step =
  role === 'write'
    ? () => {
        commitGroup();
        // The moment until the next group.
        Atomics.wait(pause, 0, 0, pauseMs);
      }
    : () => read.get();
process.stdout.write('ready\n');
while (Date.now() < start);
let n = 0;
for (; Date.now() < end; n++) step();
db.close();
process.stdout.write(`${role} ${n}\n`);
