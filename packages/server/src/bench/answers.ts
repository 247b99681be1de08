/**
 * npm run bench:answers — acknowledged answer saves per second and their latency on SQLite and on
 * PostgreSQL, next to a no-op route (the server clock) and the smallest signed-in call (the candidate's own
 * account) measured in the same run, and camera frames put to the store and recorded; whether every save that got
 * a receipt is stored (looked up by its client id); whether a save survives `kill -9` of the server the
 * moment after its receipt; and whether every receipt survives `kill -9` of the server in the middle of the
 * load. On SQLite the saves are measured again with the supervisor's two API processes (PROCESSES=2) in the same
 * run, and the ratio of the two throughputs printed.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { StsData } from '@examhall/contract';
import { cameraFrames, stsUploadTarget } from './examMix.js';
import {
  call,
  candidatesInExam,
  treeCpu,
  freshDb,
  smsInbox,
  startServer,
  type BenchDb,
  type ServerProcess,
} from './harness.js';
import { requestText, runLoad } from './load.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CANDIDATES = Number(process.env.BENCH_CANDIDATES ?? 200);
/** Camera frames each candidate puts and records in the frame run. */
const FRAMES_PER_CANDIDATE = Number(process.env.BENCH_FRAMES ?? 10);
const KILL_ROUNDS = Number(process.env.BENCH_KILL_ROUNDS ?? 10);
/** When the server is killed under load, in ms after the load starts. */
const KILL_AFTER_MS = Number(process.env.BENCH_KILL_AFTER_MS ?? 2000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .filter((d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres');

/**
 * Runs the load and measures the server processes' CPU time over it. On a shared machine throughput and
 * latency swing with whatever else runs; CPU time per acknowledged request hardly does, so it is the
 * figure to compare changes by.
 */
async function load(
  server: ServerProcess,
  next: () => string | Buffer,
  answered?: (request: string | Buffer, status: number) => void,
  count?: number,
) {
  const url = new URL(server.base);
  const before = treeCpu(server.child.pid!);
  const figures = await runLoad({
    host: url.hostname,
    port: Number(url.port),
    connections: CONNECTIONS,
    seconds: SECONDS,
    next,
    ...(answered ? { answered } : {}),
    ...(count === undefined ? {} : { count }),
  });
  const after = treeCpu(server.child.pid!);
  const cpuPerRequest =
    before === null || after === null ? null : Math.round((after - before) / Math.max(figures.ok, 1));
  return { ...figures, cpuPerRequest };
}

const cpu = (us: number | null) => (us === null ? 'cpu n/a' : `cpu ${us} us/req`);

/**
 * Requests that save answers of the candidates in turn, each with a client id of its own and the next seq of
 * its answer; `acknowledged` collects the client ids of the saves answered 2xx (a receipt).
 */
function saveLoad(tokens: readonly string[], examId: number, questionIds: readonly number[], host: string) {
  const seqs = new Map<string, number>();
  const acknowledged = new Set<string>();
  let n = 0;
  const next = () => {
    const token = tokens[n % tokens.length]!;
    const subject = questionIds[Math.floor(n / tokens.length) % questionIds.length]!;
    n += 1;
    const k = `${token}:${subject}`;
    const seq = (seqs.get(k) ?? 0) + 1;
    seqs.set(k, seq);
    const body = `{"exam_id":${examId},"subject_id":${subject},"answer":{"kind":"choice","option":"${seq % 2 ? 'A' : 'B'}"},"client_id":"bench-${n}-${seq}","seq":${seq},"changed_at":${Date.now()}}`;
    return requestText('POST', `/api/answer/answer?auth=${token}`, host, body);
  };
  const answered = (request: string | Buffer, status: number) => {
    if (status >= 200 && status < 300) acknowledged.add(/"client_id":"([^"]+)"/.exec(String(request))![1]!);
  };
  return { next, answered, acknowledged };
}

/**
 * Camera frames as the page sends them: FRAMES_PER_CANDIDATE puts of a 60-120 KB JPEG straight to the store
 * (SigV4, signed before the load), then the recording call of each. Each step's server CPU is measured apart.
 */
async function frameLoad(server: ServerProcess, tokens: readonly string[], examId: number) {
  const url = new URL(server.base);
  const pictures = cameraFrames();
  const shas = pictures.map((f) => createHash('sha256').update(f).digest('hex'));
  const puts: Buffer[] = [];
  const records: string[] = [];
  for (const [c, token] of tokens.entries()) {
    const sts = await call<StsData>(server.base, 'GET', `/sts/get-token?exam_id=${examId}&auth=${token}`);
    for (let n = 0; n < FRAMES_PER_CANDIDATE; n++) {
      const k = (c + n) % pictures.length;
      const { key, url: target, signer } = stsUploadTarget(sts, `frame/bench-${n}.jpg`, url);
      const signed = await signer.sign(target.toString(), {
        method: 'PUT',
        headers: { 'content-type': 'image/jpeg', 'x-amz-content-sha256': shas[k]! },
      });
      let head = `PUT ${target.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n`;
      signed.headers.forEach((v, name) => (head += `${name}: ${v}\r\n`));
      head += `Content-Length: ${pictures[k]!.length}\r\n\r\n`;
      puts.push(Buffer.concat([Buffer.from(head, 'latin1'), pictures[k]!]));
      const body = JSON.stringify({
        exam_id: examId,
        kind: 'frame',
        key,
        sha256: shas[k],
        trigger_time: Date.now(),
        client_id: `bench-frame-${c}-${n}`,
      });
      records.push(requestText('POST', `/api/monitor/capture?auth=${token}`, url.host, body));
    }
  }
  // Put in turn across the candidates, and recorded in the same order: each recording follows its own put.
  let p = 0;
  // Refusals by status, so that an error count says what it was.
  const refused = new Map<string, number>();
  const tally = (step: string) => (_request: string | Buffer, status: number) => {
    if (status >= 300) refused.set(`${step} ${status}`, (refused.get(`${step} ${status}`) ?? 0) + 1);
  };
  const put = await load(server, () => puts[p++ % puts.length]!, tally('put'), puts.length);
  let r = 0;
  const record = await load(server, () => records[r++ % records.length]!, tally('record'), records.length);
  return {
    put,
    record,
    refused: [...refused].map(([k, n]) => `${k}: ${n}`).join(', ') || 'none',
    bytes: Math.round(puts.reduce((a, b) => a + b.length, 0) / puts.length),
  };
}

/** How many of the acknowledged client ids have no answer event in the database. */
async function missing(db: BenchDb, acknowledged: ReadonlySet<string>): Promise<number> {
  const handle = db.open();
  try {
    const rows = await handle.db.selectFrom('answer_events').select('client_id').execute();
    const stored = new Set(rows.map((r) => r.client_id));
    return [...acknowledged].filter((id) => !stored.has(id)).length;
  } finally {
    await handle.db.destroy();
  }
}

/** Saves per second and latency with `processes` API processes (unset: the harness's BENCH_PROCESSES or one). */
async function measure(dialect: 'sqlite' | 'postgres', processes?: number) {
  const db = await freshDb(dialect);
  const inbox = await smsInbox();
  const server = await startServer({
    ...db.env,
    SMS_PROVIDER: 'webhook',
    SMS_WEBHOOK_URL: inbox.url,
    ...(processes ? { PROCESSES: String(processes) } : {}),
  });
  try {
    const { tokens, examId, questionIds } = await candidatesInExam(server, db, inbox, CANDIDATES);
    const host = new URL(server.base).host;
    const noopText = requestText('GET', '/api/monitor/time-table', host);
    const noop = await load(server, () => noopText);
    // The smallest signed-in call: what finding the candidate behind a token costs, above the no-op.
    const infoTexts = tokens.map((t) => requestText('GET', `/api/user/get-info?auth=${t}`, host));
    let i = 0;
    const signedIn = await load(server, () => infoTexts[i++ % infoTexts.length]!);
    const { next, answered, acknowledged } = saveLoad(tokens, examId, questionIds, host);
    const saves = await load(server, next, answered);
    const frames = await frameLoad(server, tokens, examId);
    return { noop, signedIn, saves, frames, acknowledged: acknowledged.size, lost: await missing(db, acknowledged) };
  } finally {
    await server.stop();
    inbox.close();
    await db.drop();
  }
}

/**
 * Kills the server with SIGKILL in the middle of the save load, then looks in the database for every save
 * that got a receipt before the kill.
 */
async function killUnderLoad(dialect: 'sqlite' | 'postgres'): Promise<{ acknowledged: number; lost: number }> {
  const db = await freshDb(dialect);
  const inbox = await smsInbox();
  const server = await startServer({ ...db.env, SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: inbox.url });
  try {
    const { tokens, examId, questionIds } = await candidatesInExam(server, db, inbox, CANDIDATES);
    const url = new URL(server.base);
    const { next, answered, acknowledged } = saveLoad(tokens, examId, questionIds, url.host);
    const kill = setTimeout(() => server.child.kill('SIGKILL'), KILL_AFTER_MS);
    await runLoad({
      host: url.hostname,
      port: Number(url.port),
      connections: CONNECTIONS,
      seconds: SECONDS,
      next,
      answered,
    });
    clearTimeout(kill);
    await server.stop();
    return { acknowledged: acknowledged.size, lost: await missing(db, acknowledged) };
  } finally {
    await server.stop();
    inbox.close();
    await db.drop();
  }
}

/** Saves, takes the receipt, kills the server at once with SIGKILL, restarts it and looks for the save. */
async function killTest(dialect: 'sqlite' | 'postgres'): Promise<{ survived: number; rounds: number }> {
  const db = await freshDb(dialect);
  const inbox = await smsInbox();
  const env = { ...db.env, SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: inbox.url };
  let server = await startServer(env);
  let survived = 0;
  try {
    const { tokens, examId, questionIds } = await candidatesInExam(server, db, inbox, 1);
    const token = tokens[0]!;
    for (let round = 1; round <= KILL_ROUNDS; round++) {
      const receipt = await call<{ version: number }>(server.base, 'POST', `/answer/answer?auth=${token}`, {
        exam_id: examId,
        subject_id: questionIds[0],
        answer: { kind: 'choice', option: round % 2 ? 'A' : 'B' },
        client_id: randomUUID(),
        seq: round,
        changed_at: Date.now(),
      });
      server.child.kill('SIGKILL');
      await server.stop();
      server = await startServer(env);
      const shown = await call<{ answer: { version: number; value: { option: string } } | null }>(
        server.base,
        'GET',
        `/subject/show-new?exam_id=${examId}&subject_id=${questionIds[0]}&auth=${token}`,
      );
      if (shown.answer?.version === receipt.version && shown.answer.value.option === (round % 2 ? 'A' : 'B'))
        survived += 1;
    }
  } finally {
    await server.stop();
    inbox.close();
    await db.drop();
  }
  return { survived, rounds: KILL_ROUNDS };
}

async function main() {
  console.log(
    `answer saves: ${CONNECTIONS} connections, ${SECONDS} s per run, ${CANDIDATES} candidates; the load generator shares the machine's cores`,
  );
  const rows: string[] = [];
  for (const dialect of DIALECTS) {
    const { noop, signedIn, saves, frames, acknowledged, lost } = await measure(
      dialect,
      dialect === 'sqlite' ? 1 : undefined,
    );
    const kill = await killTest(dialect);
    const killed = await killUnderLoad(dialect);
    rows.push(
      `${dialect.padEnd(9)} no-op ${String(noop.perSecond).padStart(6)}/s p50 ${noop.p50} ms p99 ${noop.p99} ms ${cpu(noop.cpuPerRequest)} | ` +
        `signed-in no-op ${String(signedIn.perSecond).padStart(6)}/s ${cpu(signedIn.cpuPerRequest)} | ` +
        `saves ${String(saves.perSecond).padStart(6)}/s p50 ${saves.p50} ms p99 ${saves.p99} ms ${cpu(saves.cpuPerRequest)} ` +
        `(${((saves.perSecond / Math.max(noop.perSecond, 1)) * 100).toFixed(0)}% of no-op) | ` +
        `frames of ${Math.round(frames.bytes / 1000)} KB: put ${cpu(frames.put.cpuPerRequest)}, recorded ${cpu(frames.record.cpuPerRequest)} (refused ${frames.refused}; errors ${frames.put.errors + frames.record.errors}) | ` +
        `acknowledged ${acknowledged}, not stored ${lost}, errors ${saves.errors} | kill -9 after receipt: ${kill.survived}/${kill.rounds} survived | ` +
        `kill -9 under load: ${killed.acknowledged} acknowledged, not stored ${killed.lost}`,
    );
    console.log(rows.at(-1));
    if (dialect === 'sqlite') {
      // The supervisor's two API processes on the one SQLite file, against the one-process figure just taken.
      const two = await measure('sqlite', 2);
      rows.push(
        `sqlite, 2 API processes: saves ${String(two.saves.perSecond).padStart(6)}/s p50 ${two.saves.p50} ms p99 ${two.saves.p99} ms ` +
          `${cpu(two.saves.cpuPerRequest)} | ${(two.saves.perSecond / Math.max(saves.perSecond, 1)).toFixed(2)}x the one-process saves/s | ` +
          `acknowledged ${two.acknowledged}, not stored ${two.lost}, errors ${two.saves.errors}`,
      );
      console.log(rows.at(-1));
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
