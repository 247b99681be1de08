/**
 * The whole campus exam against the real server as its own process: a fresh database with the demo exam (all
 * eleven question types), N candidates invited in bulk through the repository (setup, not timed), then the
 * candidates' mix over HTTP (examMix.ts), with the server's CPU and memory. Prints a table per call, writes JSON
 * and a self-contained HTML chart, and ends with one JSON line. The database, data folder and stored pictures are
 * removed afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_AREA_CODE } from '@examhall/contract';
import { InvitationRepository } from '../repositories/invitations.js';
import { runExamMix, NOOP, type MixOptions } from './examMix.js';
import { examChart } from './examChart.js';
import { cpuMicros, freshDb, rssSampler, smsInbox, startServer, type ServerLaunch } from './harness.js';
import { round1 } from './latency.js';

/** What a run is asked for. */
export interface ExamBenchOptions extends Omit<MixOptions, 'base' | 'examId' | 'phones' | 'codeOf'> {
  candidates: number;
  dialect: 'sqlite' | 'postgres';
  /** Folder of the JSON and HTML written. */
  outDir: string;
  /** Extra server environment (e.g. WEB_DIST). */
  serverEnv?: Record<string, string>;
  launch?: ServerLaunch;
}

/** One call's figures. */
export interface CallFigures {
  call: string;
  count: number;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  errors: number;
  error_samples: string[];
}

/** The last line's object and the JSON file's summary. */
export interface ExamBenchSummary {
  candidates: number;
  errors: number;
  p99_ms: Record<string, number>;
  calls: CallFigures[];
  /** From the opening to each candidate's first question, and from its press of start. */
  first_question_s: { seen: number; p99: number; max: number; from_start_p99: number; from_start_max: number };
  server: { cpu_s: number | null; cpu_share_of_one_core: number | null; peak_rss_mb: number };
  /** The load process itself, to show it stays light. */
  load: { cpu_s: number; peak_rss_mb: number; pool_wait_p50_ms: number; pool_wait_p99_ms: number };
  seconds: number;
  options: Omit<ExamBenchOptions, 'launch' | 'serverEnv' | 'outDir'>;
  files: { json: string; html: string };
}

const pad = (v: string | number, n: number) => String(v).padStart(n);

/** Runs the bench; `print` receives each line of its report, the last one being the summary JSON. */
export async function runExamBench(o: ExamBenchOptions, print: (line: string) => void): Promise<ExamBenchSummary> {
  const db = await freshDb(o.dialect);
  const inbox = await smsInbox();
  const server = await startServer(
    {
      ...db.env,
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: inbox.url,
      // Login codes are texted as candidates ask; the default 50 a second would hold a wave back at the gateway.
      SMS_RATE: '10000',
      // Every simulated candidate comes from an address of its own (X-Forwarded-For); a campus behind one NAT
      // would need this limit raised the same way.
      SSE_MAX_PER_IP: String(Math.max(1000, o.candidates * 2)),
      ...o.serverEnv,
    },
    3,
    o.launch,
  );
  try {
    const handle = db.open();
    const exam = await handle.db.selectFrom('exams').select('id').executeTakeFirstOrThrow();
    const phones = Array.from({ length: o.candidates }, (_, i) => `137${String(i).padStart(8, '0')}`);
    await new InvitationRepository(handle.db).inviteMissing(
      exam.id,
      phones.map((phone) => ({ area_code: DEFAULT_AREA_CODE, phone })),
      Date.now(),
    );
    await handle.db.destroy();

    const codeOf = async (phone: string) => {
      for (let tries = 0; tries < 2000; tries++) {
        const code = inbox.codes.get(phone);
        if (code !== undefined) return code;
        await new Promise((r) => setTimeout(r, 10));
      }
      return '000000';
    };
    const pid = server.child.pid!;
    const cpuBefore = cpuMicros(pid);
    const sampler = rssSampler(pid);
    const loadCpu = process.cpuUsage();
    const mix = await runExamMix({ ...o, base: server.base, examId: exam.id, phones, codeOf });
    const cpuAfter = cpuMicros(pid);
    const peakMb = sampler.stop();

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
    const cpuS = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / 1e6;
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
        peak_rss_mb: Math.round(peakMb),
      },
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
      `exam mix: ${o.candidates} candidates, ${o.dialect}, logins over ${o.loginSpreadS} s, start within ${o.startSpreadS} s, ` +
        `exam ${o.examS} s${o.assets ? '' : ', page files from a CDN'}; frames ${mix.frameBytes.map((b) => Math.round(b / 1024)).join('/')} KB; one load process`,
    );
    print(
      `${'call'.padEnd(34)}${pad('count', 8)}${pad('rps', 8)}${pad('p50', 8)}${pad('p95', 8)}${pad('p99', 8)}${pad('errors', 8)}`,
    );
    const noop = calls.find((c) => c.call === NOOP);
    for (const c of [...calls].sort((a, b) => a.call.localeCompare(b.call))) {
      const ratio =
        noop && noop.p99_ms > 0 && c !== noop && c.count > 0
          ? ` (p99 ${(c.p99_ms / noop.p99_ms).toFixed(1)}x no-op)`
          : '';
      print(
        `${c.call.padEnd(34)}${pad(c.count, 8)}${pad(c.rps, 8)}${pad(c.p50_ms, 8)}${pad(c.p95_ms, 8)}${pad(c.p99_ms, 8)}${pad(c.errors, 8)}${ratio}`,
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
    print(`written: ${files.json}, ${files.html}`);
    print(
      JSON.stringify({
        candidates: summary.candidates,
        errors: summary.errors,
        p99_ms: summary.p99_ms,
        first_question_s: summary.first_question_s,
        server: summary.server,
        load: summary.load,
      }),
    );
    return summary;
  } finally {
    await server.stop();
    inbox.close();
    await db.drop();
  }
}
