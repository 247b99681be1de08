/**
 * bench:exam --staff-load: the candidates' mix twice on one server started as `npm start` starts it (the supervisor,
 * one API process per core and the worker), first alone, then with the staff's heavy work beside it
 * (staffLoad.ts), each half with candidates of its own; by default after an unmeasured warm-up half. Prints per candidate call the p99 alone, under staff load
 * and their ratio, each staff action's time or error, and the goals met or not; ends with one JSON line.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { startExamServers } from './examBench.js';
import type { ExamBenchOptions } from './examSummary.js';
import { NOOP, QUEUED, runExamMix, type MixResult } from './examMix.js';
import { roleCpu } from './harness.js';
import { round1, SLOW_MS, type SlowCall } from './latency.js';
import { watchWal, walTimeline } from './walWatch.js';
import {
  codeAnswerOf,
  runStaffLoad,
  staffFiles,
  SIMILARITY_SUBMISSIONS,
  STAFF_ADMIN,
  type StaffAction,
} from './staffLoad.js';

/** What a staff-load run is asked for: the exam bench's options, on one machine's embedded store. */
export interface StaffLoadBenchOptions extends Omit<ExamBenchOptions, 'apiProcesses'> {
  /** The server's PROCESSES; absent, one per core as `npm start` runs it. */
  processes?: number;
  /**
   * A third half, alone again after the loaded one: the loaded half then has an alone half on either side, on a
   * database smaller and larger than its own (the halves cannot swap: the similarity run needs the first's code).
   */
  aloneAfter?: boolean;
  /**
   * A half first, unmeasured, that saves the code the similarity run compares: both measured halves then run on a
   * server past its first wave (its database, caches and WAL in the state an exam day keeps them in) and save the
   * same answers. Without it the alone half runs on the fresh server and saves the code.
   */
  warmUp?: boolean;
}

/** The goals of issue 26 (README, Performance). */
export const GOALS = { saveP99Ms: 100, saveRatio: 1.5, anyCallP99Ms: 500 } as const;
const SAVE = 'POST /answer/answer';

/** One candidate call in both halves. */
export interface StaffCallFigures {
  call: string;
  count_alone: number;
  count_loaded: number;
  p99_alone_ms: number;
  p99_loaded_ms: number;
  ratio: number | null;
  errors_alone: number;
  errors_loaded: number;
}

/** The last line's object. */
export interface StaffLoadSummary {
  candidates: number;
  processes: number;
  calls: StaffCallFigures[];
  staff: StaffAction[];
  /** With aloneAfter: answer saves' p99 in the third half (alone, after the loaded one) and the loaded half's to it. */
  alone_after: { save_p99_ms: number; ratio: number | null } | null;
  /** Answer saves under staff load of SLOW_MS or more, by the staff action running when each was sent. */
  slow_saves_by_action: Record<string, number>;
  /** Any candidate call under staff load over the any-call goal, by call and then by the staff action running when sent. */
  over_goal_by_action: Record<string, Record<string, number>>;
  /** The staff script's wall seconds, and the loaded half's. */
  staff_s: number;
  halves_s: { alone: number; loaded: number };
  /** The load generator's event-loop delay in each half (ms): latency it adds to every figure of that half. */
  load_loop_delay_ms: { alone: Half['loopDelay']; loaded: Half['loopDelay']; after: Half['loopDelay'] | null };
  server_cpu_s: {
    alone: number | null;
    loaded: number | null;
    /** Each half's by role; the third half's with aloneAfter. */
    by_role: { alone: HalfCpu | null; loaded: HalfCpu | null; after: HalfCpu | null };
  };
  goals: { save_p99_under_100_ms: boolean; save_ratio_at_most_1_5: boolean; no_call_p99_over_500_ms: boolean };
  file: string;
}

/** The pseudo-calls the mix counts apart from the candidates' timed calls. */
const notACall = (call: string) => call === NOOP || call === QUEUED || call.endsWith('(before the opening)');

const pad = (v: string | number, n: number) => String(v).padStart(n);

/** Runs the two halves; `print` receives each report line, the last one being the summary JSON. */
export async function runStaffLoadBench(
  o: StaffLoadBenchOptions,
  print: (line: string) => void,
): Promise<StaffLoadSummary> {
  const processes = o.processes ?? os.availableParallelism();
  const half = (k: number) => Array.from({ length: o.candidates }, (_, i) => `137${k}${String(i).padStart(7, '0')}`);
  const alonePhones = half(0);
  const loadedPhones = half(1);
  const afterPhones = o.aloneAfter ? half(2) : [];
  const warmPhones = o.warmUp ? half(3) : [];
  const servers = await startExamServers(
    {
      ...o,
      dialect: o.dialect,
      apiProcesses: 1,
      serverEnv: {
        ...o.serverEnv,
        PROCESSES: String(processes),
        ADMIN_PHONE: STAFF_ADMIN.phone,
        ADMIN_PASSWORD: STAFF_ADMIN.password,
      },
    },
    [...warmPhones, ...alonePhones, ...loadedPhones, ...afterPhones],
  );
  try {
    const api = servers.apis[0]!;
    const pid = api.child.pid!;
    const codeOf = async (phone: string) => {
      for (let tries = 0; tries < 2000; tries++) {
        const code = servers.inbox.codes.get(phone);
        if (code !== undefined) return code;
        await new Promise((r) => setTimeout(r, 10));
      }
      return '000000';
    };
    /** One half, with the load generator's own event-loop delay over it (a late timer or reply is timed late). */
    const mixOf = async (phones: string[], opensAt: number, codeAnswers: number): Promise<Half> => {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      try {
        const mix = await runExamMix({
          ...o,
          bases: [api.base],
          examId: servers.examId,
          phones,
          codeOf,
          opensAt,
          codeAnswers,
          codeAnswerOf,
        });
        return { ...mix, loopDelay: { p99_ms: round1(delay.percentile(99) / 1e6), max_ms: round1(delay.max / 1e6) } };
      } finally {
        delay.disable();
      }
    };
    const codeAnswers = Math.min(o.candidates, SIMILARITY_SUBMISSIONS);

    print(
      `staff load: ${o.candidates} candidates a half, ${processes} API process(es) and the worker (${servers.what}), ` +
        `logins over ${o.loginSpreadS} s, start within ${o.startSpreadS} s, exam ${o.examS} s; ` +
        `the first ${codeAnswers} of the ${o.warmUp ? 'unmeasured warm-up half' : 'first half'} save code to the ` +
        'programming Q&A question',
    );
    // After the first half the window is open already: later halves' candidates check in and press start as late
    // arrivals do.
    const lateOpening = () => Date.now() + o.loginSpreadS * 1000 + 2000;
    if (o.warmUp) {
      const warm = await mixOf(warmPhones, servers.opensAt, codeAnswers);
      print(`warm-up half done in ${round1(warm.seconds)} s (not measured)`);
    }
    const files = await staffFiles();
    const wal = servers.sqliteFile ? watchWal(servers.sqliteFile) : null;
    const aloneStarted = Date.now();
    const reading = (): CpuReading => ({ server: roleCpu(pid), load: process.cpuUsage() });
    const cpu = [reading()];
    const alone = await mixOf(alonePhones, o.warmUp ? lateOpening() : servers.opensAt, o.warmUp ? 0 : codeAnswers);
    cpu.push(reading());
    print(`first measured half (alone) done in ${round1(alone.seconds)} s`);

    const loadedStarted = Date.now();
    const opensAt = lateOpening();
    const staffStarted = performance.now();
    const staffRun = runStaffLoad(api.base, servers.examId, files).then((actions) => ({
      actions,
      seconds: (performance.now() - staffStarted) / 1000,
    }));
    const loaded = await mixOf(loadedPhones, opensAt, 0);
    cpu.push(reading());
    const staff = await staffRun;
    const loadedEnded = Date.now();
    cpu.push(reading());
    const after = o.aloneAfter ? await mixOf(afterPhones, lateOpening(), 0) : null;
    cpu.push(reading());
    const halfCpu = (k: number) => cpuBetween(cpu[k], cpu[k + 1]);
    const cpuAlone = halfCpu(0);
    const cpuLoaded = halfCpu(1);
    const cpuAfter = after ? halfCpu(3) : null;
    wal?.stop();

    const figures = compare(alone, loaded);
    const save = figures.find((c) => c.call === SAVE);
    const goals = {
      save_p99_under_100_ms: !!save && save.p99_alone_ms < GOALS.saveP99Ms && save.p99_loaded_ms < GOALS.saveP99Ms,
      save_ratio_at_most_1_5: !!save && save.ratio !== null && save.ratio <= GOALS.saveRatio,
      no_call_p99_over_500_ms: figures.every((c) => c.p99_loaded_ms <= GOALS.anyCallP99Ms),
    };

    print(
      `${'call'.padEnd(34)}${pad('n alone', 9)}${pad('n load', 9)}${pad('p99 alone', 11)}${pad('p99 load', 10)}${pad('ratio', 7)}${pad('errors', 9)}`,
    );
    for (const c of figures)
      print(
        `${c.call.padEnd(34)}${pad(c.count_alone, 9)}${pad(c.count_loaded, 9)}${pad(c.p99_alone_ms, 11)}${pad(c.p99_loaded_ms, 10)}` +
          `${pad(c.ratio === null ? '-' : c.ratio.toFixed(2), 7)}${pad(`${c.errors_alone}/${c.errors_loaded}`, 9)}`,
      );
    for (const [name, mix] of [
      ['alone', alone],
      ['load', loaded],
    ] as const)
      for (const [call, s] of mix.stats.calls) for (const e of s.samples) print(`    ${name} ${call} error: ${e}`);
    print(
      `staff actions (one after another, ${round1(staff.seconds)} s in all; the loaded half ${round1(loaded.seconds)} s):`,
    );
    for (const a of staff.actions)
      print(`  ${a.action.padEnd(48)}${a.error === null ? `${pad(a.ms ?? 0, 8)} ms` : `  error: ${a.error}`}`);
    if (staff.seconds > loaded.seconds)
      print('  (the staff script outlasted the candidates: its last actions ran without them)');
    const slow = slowByAction(loaded, staff.actions, (s) => s.call === SAVE)[SAVE] ?? {};
    const overGoal = slowByAction(loaded, staff.actions, (s) => s.ms > GOALS.anyCallP99Ms);
    const listed = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([action, n]) => `${action} ${n}`)
        .join(', ') || 'none';
    print(
      `answer saves of ${SLOW_MS} ms or more under staff load, by the staff action running when they were sent: ` +
        listed(slow),
    );
    print(
      `answer saves of ${SLOW_MS} ms or more by 10 s of each half (from its start): alone ${timeline(alone)}; ` +
        `under staff load ${timeline(loaded)} (the staff script ran from 0 to ${Math.ceil(staff.seconds)} s)`,
    );
    if (wal)
      print(
        `the WAL (largest, and frames not yet checkpointed) by 10 s: alone ${walTimeline(wal.samples, aloneStarted, loadedStarted)}; ` +
          `under staff load ${walTimeline(wal.samples, loadedStarted, loadedEnded)}`,
      );
    print(`calls over ${GOALS.anyCallP99Ms} ms under staff load, by the staff action running when they were sent:`);
    for (const [call, counts] of Object.entries(overGoal)) print(`  ${call.padEnd(34)}${listed(counts)}`);
    print(
      `server CPU (supervisor, API processes, worker): ${cpuText(cpuAlone, alone)} alone; ` +
        `${cpuText(cpuLoaded, loaded)} under staff load` +
        (after ? `; ${cpuText(cpuAfter, after)} alone after it` : ''),
    );
    const afterSave = after ? saveAfter(after, save) : null;
    if (afterSave)
      print(
        `answer saves in a third half, alone after the loaded one: p99 ${afterSave.save_p99_ms} ms; the loaded half's ` +
          `p99 to it ${afterSave.ratio?.toFixed(2) ?? '-'} (to the first alone half ${save?.ratio?.toFixed(2) ?? '-'})`,
      );
    const yes = (v: boolean) => (v ? 'met' : 'NOT met');
    print(
      `goals: answer saves p99 under ${GOALS.saveP99Ms} ms in both halves ${yes(goals.save_p99_under_100_ms)} ` +
        `(${save?.p99_alone_ms ?? '-'} / ${save?.p99_loaded_ms ?? '-'} ms); ratio at most ${GOALS.saveRatio} ` +
        `${yes(goals.save_ratio_at_most_1_5)} (${save?.ratio?.toFixed(2) ?? '-'}); no call's p99 over ${GOALS.anyCallP99Ms} ms ` +
        `under staff load ${yes(goals.no_call_p99_over_500_ms)}`,
    );

    fs.mkdirSync(o.outDir, { recursive: true });
    const file = path.join(o.outDir, `exam-staff-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const summary: StaffLoadSummary = {
      candidates: o.candidates,
      processes,
      calls: figures,
      staff: staff.actions,
      alone_after: afterSave,
      slow_saves_by_action: slow,
      over_goal_by_action: overGoal,
      staff_s: round1(staff.seconds),
      halves_s: { alone: round1(alone.seconds), loaded: round1(loaded.seconds) },
      load_loop_delay_ms: { alone: alone.loopDelay, loaded: loaded.loopDelay, after: after?.loopDelay ?? null },
      server_cpu_s: {
        alone: cpuAlone?.total ?? null,
        loaded: cpuLoaded?.total ?? null,
        by_role: { alone: cpuAlone, loaded: cpuLoaded, after: cpuAfter },
      },
      goals,
      file,
    };
    fs.writeFileSync(file, JSON.stringify(summary, null, 2));
    print(`written: ${file}`);
    print(JSON.stringify({ ...summary, file: undefined }));
    return summary;
  } finally {
    await servers.close();
  }
}

/** A half's result, with the load generator's event-loop delay over it (ms). */
type Half = MixResult & { loopDelay: { p99_ms: number; max_ms: number } };

/** A half's server CPU, seconds, by role. */
export interface HalfCpu {
  total: number;
  supervisor: number;
  api: number;
  worker: number;
  /** The load generator's (this process, sharing the machine's cores with the server). */
  load: number;
}

/** The server's CPU by role and the load generator's (this process's) at one moment. */
interface CpuReading {
  server: ReturnType<typeof roleCpu>;
  load: NodeJS.CpuUsage;
}

/** The CPU used between two readings, by role (null where /proc has none). */
function cpuBetween(a: CpuReading | undefined, b: CpuReading | undefined): HalfCpu | null {
  if (!a?.server || !b?.server) return null;
  const [from, to] = [a.server, b.server];
  const s = (k: 'supervisor' | 'api' | 'worker') => round1((to[k] - from[k]) / 1e6);
  return {
    total: round1(s('supervisor') + s('api') + s('worker')),
    supervisor: s('supervisor'),
    api: s('api'),
    worker: s('worker'),
    load: round1((b.load.user + b.load.system - a.load.user - a.load.system) / 1e6),
  };
}

/** A half's CPU as printed: the total over the half's seconds, by role, and the API processes' per candidate call. */
function cpuText(c: HalfCpu | null, half: Half): string {
  if (!c) return 'n/a';
  let calls = 0;
  for (const [call, s] of half.stats.calls) if (call !== NOOP) calls += s.count;
  const perCall = calls > 0 ? ` (${((c.api * 1000) / calls).toFixed(3)} ms of API CPU per call, ${calls} calls)` : '';
  return `${c.total} s over ${round1(half.seconds)} s: API ${c.api} s${perCall}, worker ${c.worker} s, supervisor ${c.supervisor} s; the load generator ${c.load} s, its event loop late by ${half.loopDelay.p99_ms} ms at the p99 (at most ${half.loopDelay.max_ms} ms)`;
}

/** Answer saves' p99 in the alone half after the loaded one, and the loaded half's p99 against it. */
function saveAfter(
  after: MixResult,
  save: StaffCallFigures | undefined,
): { save_p99_ms: number; ratio: number | null } {
  const p99 = round1(after.stats.calls.get(SAVE)?.percentile(0.99) ?? 0);
  return { save_p99_ms: p99, ratio: save && p99 > 0 ? Math.round((save.p99_loaded_ms / p99) * 100) / 100 : null };
}

/** A half's slow answer saves counted by the 10 s of the half they were sent in, as `from-to s: n` for each. */
function timeline(half: MixResult): string {
  const counts = new Map<number, number>();
  for (const s of half.stats.slow) {
    if (s.call !== SAVE) continue;
    const bucket = Math.floor((s.sentAt - half.stats.started) / 10_000);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return (
    [...counts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, n]) => `${b * 10}-${b * 10 + 10} s: ${n}`)
      .join(', ') || 'none'
  );
}

/** The loaded half's slow calls that `pick` keeps, counted by call and by the staff action whose time they began in. */
function slowByAction(
  loaded: MixResult,
  actions: readonly StaffAction[],
  pick: (s: SlowCall) => boolean,
): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const s of loaded.stats.slow) {
    if (!pick(s)) continue;
    const during = actions.find((a) => s.sentAt >= a.started && s.sentAt < a.ended)?.action ?? 'no staff action';
    const counts = (out[s.call] ??= {});
    counts[during] = (counts[during] ?? 0) + 1;
  }
  return out;
}

/** Every candidate call of either half, by name, with both p99s and their ratio. */
function compare(alone: MixResult, loaded: MixResult): StaffCallFigures[] {
  const names = new Set([...alone.stats.calls.keys(), ...loaded.stats.calls.keys()].filter((c) => !notACall(c)));
  return [...names].sort().map((call) => {
    const a = alone.stats.calls.get(call);
    const l = loaded.stats.calls.get(call);
    const p99a = round1(a?.percentile(0.99) ?? 0);
    const p99l = round1(l?.percentile(0.99) ?? 0);
    return {
      call,
      count_alone: a?.count ?? 0,
      count_loaded: l?.count ?? 0,
      p99_alone_ms: p99a,
      p99_loaded_ms: p99l,
      ratio: p99a > 0 && l?.count ? Math.round((p99l / p99a) * 100) / 100 : null,
      errors_alone: a?.errors ?? 0,
      errors_loaded: l?.errors ?? 0,
    };
  });
}
