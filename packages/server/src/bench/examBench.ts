/**
 * The whole campus exam against the real server as its own process: a fresh database with the demo exam (all
 * eleven question types), N candidates invited in bulk through the repository (setup, not timed), then the
 * candidates' mix over HTTP (examMix.ts), with the server's CPU and memory. Prints a table per call, writes JSON
 * and a self-contained HTML chart, and ends with one JSON line. The database, data folder and stored pictures are
 * removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_AREA_CODE } from '@examhall/contract';
import pg from 'pg';
import { sqliteFileIn } from '../db/database.js';
import { InvitationRepository } from '../repositories/invitations.js';
import { loadConfig } from '../config.js';
import { seedDemo } from '../services/demoSeed.js';
import { S3ObjectStore } from '../storage/s3ObjectStore.js';
import { startRedis, startS3rver } from './clusterParts.js';
import { runExamMix, NOOP, type StoreAccount } from './examMix.js';
import { examChart } from './examChart.js';
import { BENCH_PG, cpuMicros, freshDb, rssSampler, smsInbox, startServer, type ServerProcess } from './harness.js';
import { round1 } from './latency.js';
import type { CallFigures, ExamBenchOptions, ExamBenchSummary, ProcessFigures } from './examSummary.js';

const pad = (v: string | number, n: number) => String(v).padStart(n);

/** The window opens this long after the last login may begin, for the set-up's last steps. */
const OPENING_SLACK_MS = 2000;
/** How long the exam's window stays open: past every run's end. */
const WINDOW_OPEN_MS = 7 * 86_400_000;

/** Runs the bench; `print` receives each line of its report, the last one being the summary JSON. */
export async function runExamBench(o: ExamBenchOptions, print: (line: string) => void): Promise<ExamBenchSummary> {
  const phones = Array.from({ length: o.candidates }, (_, i) => `137${String(i).padStart(8, '0')}`);
  const servers = await startExamServers(o, phones);
  try {
    const { inbox, examId } = servers;
    const codeOf = async (phone: string) => {
      for (let tries = 0; tries < 2000; tries++) {
        const code = inbox.codes.get(phone);
        if (code !== undefined) return code;
        await new Promise((r) => setTimeout(r, 10));
      }
      return '000000';
    };
    const pids = servers.apis.map((a) => a.child.pid!);
    const cpuBefore = pids.map(cpuMicros);
    const samplers = pids.map(rssSampler);
    const partsCpu = await partsSampler(servers.partsCpu);
    const loadCpu = process.cpuUsage();
    const mix = await runExamMix({
      ...o,
      bases: servers.apis.map((a) => a.base),
      ...(servers.store ? { store: servers.store } : {}),
      examId,
      phones,
      codeOf,
      opensAt: servers.opensAt,
    });
    const cpuAfter = pids.map(cpuMicros);
    const parts = await partsCpu.stop();
    const peaks = samplers.map((s) => s.stop());
    const processes: ProcessFigures[] = servers.apis.map((a, k) => {
      const before = cpuBefore[k];
      const after = cpuAfter[k];
      const cpu = before == null || after == null ? null : (after - before) / 1e6;
      return {
        base: a.base,
        requests: mix.served[k] ?? 0,
        cpu_s: cpu === null ? null : round1(cpu),
        cpu_share_of_one_core: cpu === null ? null : Math.round((cpu / mix.seconds) * 100) / 100,
        peak_rss_mb: Math.round(peaks[k]!),
      };
    });

    const calls: CallFigures[] = [...mix.stats.calls.entries()].map(([call, s]) => ({
      call,
      count: s.count,
      rps: Math.round((s.count / mix.seconds) * 10) / 10,
      p50_ms: round1(s.percentile(0.5)),
      p95_ms: round1(s.percentile(0.95)),
      p99_ms: round1(s.percentile(0.99)),
      max_ms: round1(s.maxMs),
      errors: s.errors,
      error_samples: s.samples,
    }));
    const loadUsed = process.cpuUsage(loadCpu);
    const loadCpuS = (loadUsed.user + loadUsed.system) / 1e6;
    const sorted = (a: Float64Array) => [...a].filter((v) => !Number.isNaN(v)).sort((x, y) => x - y);
    const p99 = (v: number[]) => round1(v[Math.max(0, Math.ceil(v.length * 0.99) - 1)] ?? 0);
    const seen = sorted(mix.firstQuestionS);
    const fromStart = sorted(mix.startToQuestionS);
    const cpuS = processes.some((p) => p.cpu_s === null)
      ? null
      : (cpuAfter as number[]).reduce((n, v, k) => n + v - cpuBefore[k]!, 0) / 1e6;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    fs.mkdirSync(o.outDir, { recursive: true });
    const files = {
      json: path.join(o.outDir, `exam-${stamp}.json`),
      html: path.join(o.outDir, `exam-${stamp}.html`),
    };
    const { launch: _launch, serverEnv: _env, outDir: _out, ...options } = o;
    const summary: ExamBenchSummary = {
      candidates: o.candidates,
      errors: calls.reduce((n, c) => n + c.errors, 0),
      p99_ms: Object.fromEntries(calls.map((c) => [c.call, c.p99_ms])),
      calls,
      first_question_s: {
        seen: seen.length,
        p99: p99(seen),
        max: round1(seen.at(-1) ?? 0),
        from_start_p99: p99(fromStart),
        from_start_max: round1(fromStart.at(-1) ?? 0),
      },
      server: {
        cpu_s: cpuS === null ? null : round1(cpuS),
        cpu_share_of_one_core: cpuS === null ? null : Math.round((cpuS / mix.seconds) * 100) / 100,
        peak_rss_mb: processes.reduce((n, p) => n + p.peak_rss_mb, 0),
      },
      processes,
      parts,
      load: {
        cpu_s: round1(loadCpuS),
        peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
        pool_wait_p50_ms: round1(mix.poolWait.percentile(0.5)),
        pool_wait_p99_ms: round1(mix.poolWait.percentile(0.99)),
      },
      seconds: round1(mix.seconds),
      options,
      files,
    };
    fs.writeFileSync(files.json, JSON.stringify({ ...summary, per_second: mix.stats.perSecond }, null, 2));
    fs.writeFileSync(files.html, examChart(summary, mix.stats.perSecond));

    print(
      `exam mix: ${o.candidates} candidates, ${servers.what}, logins over ${o.loginSpreadS} s, start within ${o.startSpreadS} s, ` +
        `exam ${o.examS} s${o.assets ? '' : ', page files from a CDN'}; frames ${mix.frameBytes.map((b) => Math.round(b / 1024)).join('/')} KB; one load process`,
    );
    print(
      `${'call'.padEnd(34)}${pad('count', 8)}${pad('rps', 8)}${pad('p50', 8)}${pad('p95', 8)}${pad('p99', 8)}${pad('max', 9)}${pad('errors', 8)}`,
    );
    const noop = calls.find((c) => c.call === NOOP);
    for (const c of [...calls].sort((a, b) => a.call.localeCompare(b.call))) {
      const ratio =
        noop && noop.p99_ms > 0 && c !== noop && c.count > 0
          ? ` (p99 ${(c.p99_ms / noop.p99_ms).toFixed(1)}x no-op)`
          : '';
      print(
        `${c.call.padEnd(34)}${pad(c.count, 8)}${pad(c.rps, 8)}${pad(c.p50_ms, 8)}${pad(c.p95_ms, 8)}${pad(c.p99_ms, 8)}${pad(c.max_ms, 9)}${pad(c.errors, 8)}${ratio}`,
      );
      for (const e of c.error_samples) print(`    error: ${e}`);
    }
    print(
      `first question after the opening: ${seen.length}/${o.candidates} candidates, p99 ${summary.first_question_s.p99} s, ` +
        `max ${summary.first_question_s.max} s; from pressing start p99 ${summary.first_question_s.from_start_p99} s, max ${summary.first_question_s.from_start_max} s`,
    );
    print(
      `server: CPU ${summary.server.cpu_s ?? 'n/a'} s over ${summary.seconds} s (${summary.server.cpu_share_of_one_core ?? 'n/a'} of one core), ` +
        `peak RSS ${summary.server.peak_rss_mb} MB; load process CPU ${summary.load.cpu_s} s, peak RSS ${summary.load.peak_rss_mb} MB, ` +
        `waits for a pooled socket p50 ${summary.load.pool_wait_p50_ms} ms p99 ${summary.load.pool_wait_p99_ms} ms (in the figures above); requests ${calls.reduce((n, c) => n + c.count, 0)}, errors ${summary.errors}`,
    );
    if (processes.length > 1)
      for (const [k, p] of processes.entries())
        print(
          `  API process ${k + 1} (${p.base}): ${p.requests} requests, CPU ${p.cpu_s ?? 'n/a'} s (${p.cpu_share_of_one_core ?? 'n/a'} of one core), peak RSS ${p.peak_rss_mb} MB`,
        );
    if (Object.keys(parts).length > 0)
      print(
        `  other parts' CPU during the mix: ${Object.entries(parts)
          .map(([name, cpu]) => `${name} ${cpu} s`)
          .join(', ')}`,
      );
    print(`written: ${files.json}, ${files.html}`);
    print(
      JSON.stringify({
        candidates: summary.candidates,
        errors: summary.errors,
        p99_ms: summary.p99_ms,
        first_question_s: summary.first_question_s,
        server: summary.server,
        ...(processes.length > 1 ? { processes, parts } : {}),
        load: summary.load,
      }),
    );
    return summary;
  } finally {
    await servers.close();
  }
}

/** How often the other parts' processes are read: PostgreSQL's pools open and close backends during a run. */
const PARTS_SAMPLE_MS = 2000;

/**
 * Follows the other parts' CPU during the mix: each process's CPU at its last reading less its CPU at the start (0
 * for one born since), so a backend that closes counts up to its last reading. `stop` answers seconds per part.
 */
async function partsSampler(read: ExamServers['partsCpu']) {
  const start = await read();
  const last = new Map<string, Map<number, number>>();
  const note = (seen: Record<string, Map<number, number>>) => {
    for (const [name, pids] of Object.entries(seen)) {
      const m = last.get(name) ?? new Map<number, number>();
      for (const [pid, v] of pids) m.set(pid, v);
      last.set(name, m);
    }
  };
  note(start);
  let reading = Promise.resolve();
  const timer = setInterval(() => {
    reading = reading.then(() => read().then(note, () => undefined));
  }, PARTS_SAMPLE_MS);
  return {
    async stop(): Promise<Record<string, number>> {
      clearInterval(timer);
      await reading;
      note(await read());
      const out: Record<string, number> = {};
      for (const [name, pids] of last) {
        let micros = 0;
        for (const [pid, v] of pids) micros += v - (start[name]?.get(pid) ?? 0);
        out[name] = round1(micros / 1e6);
      }
      return out;
    },
  };
}

/** The servers of a run, with the demo exam and the phones invited. */
export interface ExamServers {
  apis: ServerProcess[];
  examId: number;
  inbox: Awaited<ReturnType<typeof smsInbox>>;
  /** The S3-compatible store pages put to in the cluster mode. */
  store: StoreAccount | null;
  /** The cluster's other parts: each one's processes with their CPU so far, µs (none in the single mode). */
  partsCpu(): Promise<Record<string, Map<number, number>>>;
  /** When the exam's window opens (epoch ms). */
  opensAt: number;
  /** What the run is on, for the report's first line. */
  what: string;
  /** The embedded store's database file (SQLite), or null on PostgreSQL. */
  sqliteFile: string | null;
  /** Stops every part and removes the run's data. */
  close(): Promise<void>;
}

export async function startExamServers(o: ExamBenchOptions, phones: readonly string[]): Promise<ExamServers> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  };
  try {
    const cluster = (o.apiProcesses ?? 1) > 1;
    const db = await freshDb(cluster ? 'postgres' : o.dialect);
    closers.push(() => db.drop());
    const inbox = await smsInbox();
    closers.push(async () => inbox.close());
    const env: Record<string, string> = {
      ...db.env,
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: inbox.url,
      // Login codes are paced to SMS_RATE (all of it for codes, by default): the default 50 a second would hold a
      // wave back for minutes and refuse it past SMS_LOGIN_MAX_WAIT. A code paced a moment after its call still
      // reaches the inbox, where codeOf waits for it.
      SMS_RATE: '10000',
      // Every simulated candidate comes from an address of its own (X-Forwarded-For); a campus behind one NAT
      // would need this limit raised the same way.
      SSE_MAX_PER_IP: String(Math.max(1000, o.candidates * 2)),
    };
    let store: StoreAccount | null = null;
    const partPids: Record<string, () => Promise<number[]>> = {};
    let s3Store: S3ObjectStore | null = null;
    if (cluster) {
      const redis = await startRedis();
      closers.push(() => redis.stop());
      const s3 = await startS3rver();
      closers.push(() => s3.close());
      const endpoint = `http://127.0.0.1:${s3.port}`;
      Object.assign(env, s3.env, {
        CLUSTER: 'true',
        // Every process reads the TOTP secrets another encrypted: one key for all.
        TOTP_KEY: randomBytes(32).toString('base64'),
        REDIS_URL: `redis://127.0.0.1:${redis.port}`,
        S3_ENDPOINT: endpoint,
      });
      store = {
        endpoint,
        bucket: s3.env.S3_BUCKET,
        region: s3.env.S3_REGION,
        accessKeyId: s3.env.S3_ACCESS_KEY_ID,
        secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
      };
      s3Store = new S3ObjectStore(loadConfig({ ...s3.env, S3_ENDPOINT: endpoint }).s3!);
      const dbName = new URL(db.env.DATABASE_URL!).pathname.slice(1);
      partPids.postgres = async () => {
        const c = new pg.Client({ connectionString: BENCH_PG });
        await c.connect();
        try {
          const r = await c.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName]);
          return r.rows.map((row) => row.pid);
        } finally {
          await c.end();
        }
      };
      partPids.redis = async () => [redis.pid];
      partPids.s3rver = async () => [s3.pid];
    }
    if (o.admissionRate !== undefined) env.ADMISSION_RATE = String(o.admissionRate);
    Object.assign(env, o.serverEnv);
    const apis: ServerProcess[] = [];
    // One after the other: the first one migrates the database.
    for (let k = 0; k < (o.apiProcesses ?? 1); k++) {
      const api = await startServer(env, 3, o.launch);
      closers.push(() => api.stop());
      apis.push(api);
    }
    const handle = db.open();
    let examId: number;
    if (s3Store) {
      // A cluster's process seeds nothing (its operators own the data): the demo exam is seeded here, with its
      // files in the cluster's store, as `examhall seed` would.
      const seeded = await seedDemo(handle.db, s3Store, phones[0] ?? '13700000000', Date.now());
      if (!seeded) throw new Error('the demo exam was not seeded');
      examId = seeded.examId;
    } else {
      examId = (await handle.db.selectFrom('exams').select('id').executeTakeFirstOrThrow()).id;
    }
    await new InvitationRepository(handle.db).inviteMissing(
      examId,
      phones.map((phone) => ({ area_code: DEFAULT_AREA_CODE, phone })),
      Date.now(),
    );
    // The window opens once the logins are spread: candidates check in before it (CHECK_IN_MINUTES) and enter at it.
    // No candidate has read the exam yet, so every process reads this window.
    const opensAt = Date.now() + o.loginSpreadS * 1000 + OPENING_SLACK_MS;
    await handle.db
      .updateTable('exams')
      .set({ start_at: opensAt, end_at: opensAt + WINDOW_OPEN_MS })
      .where('id', '=', examId)
      .execute();
    await handle.db.destroy();
    return {
      apis,
      examId,
      opensAt,
      inbox,
      store,
      async partsCpu() {
        const out: Record<string, Map<number, number>> = {};
        for (const [name, pidsOf] of Object.entries(partPids)) {
          const m = new Map<number, number>();
          for (const pid of await pidsOf()) {
            const v = cpuMicros(pid);
            if (v !== null) m.set(pid, v);
          }
          out[name] = m;
        }
        return out;
      },
      what: cluster
        ? `${apis.length} API processes (cluster) on PostgreSQL, Redis and s3rver (pages put with the store's keys)`
        : db.dialect,
      sqliteFile: db.dialect === 'sqlite' ? sqliteFileIn(db.env.DATA_DIR!) : null,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
