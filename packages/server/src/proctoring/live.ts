import { ExamPhase, type CandidateEvent, type ProctorEvent } from '@examhall/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { SseStream } from '../eventStream.js';
import type { AttemptRow } from '../repositories/attempts.js';
import type { AttemptService } from '../services/attempts.js';
import { finishReasonText, ONLINE_WINDOW_MS, type ProctorService } from '../services/proctor.js';
import type { ProctorChange, ProctorNotifier } from './notifier.js';

/** What the live streams read and announce through. */
export interface LiveDeps {
  clock: () => number;
  proctor: ProctorService;
  attempts: AttemptService;
  notifier: ProctorNotifier;
}

/** Presence is written at most this often while a candidate's stream stays open. */
const TOUCH_EVERY_MS = 10_000;

/**
 * Runs change handlers one after another, so that a stream's events keep the order of the changes,
 * and logs a failing one instead of losing the stream.
 */
function serial(log: FastifyBaseLogger) {
  let tail: Promise<void> = Promise.resolve();
  return (job: () => Promise<void>) => {
    tail = tail.then(job).catch((err: unknown) => log.error({ err }, 'live stream update failed'));
  };
}

/** Streams an exam's tile changes and new risk events to a proctor. Returns the cleanup. */
export function watchExam(
  s: LiveDeps,
  log: FastifyBaseLogger,
  examId: number,
  stream: SseStream<ProctorEvent>,
): () => void {
  stream.send({ type: 'hello', server_time: s.clock() });
  const examOf = new Map<number, number | undefined>();
  const queuedTiles = new Set<number>();
  const run = serial(log);

  const inExam = async (attemptId: number) => {
    if (!examOf.has(attemptId)) {
      if (examOf.size > 50_000) examOf.clear();
      examOf.set(attemptId, await s.proctor.examOf(attemptId));
    }
    return examOf.get(attemptId) === examId;
  };
  const sendTile = async (attemptId: number) => {
    // Several changes of one attempt in a row need one fresh tile, not one each.
    queuedTiles.delete(attemptId);
    const [tile] = await s.proctor.tiles({ attemptId });
    if (tile && !stream.closed) stream.send({ type: 'tile', tile });
  };
  const queueTile = (attemptId: number) => {
    if (queuedTiles.has(attemptId)) return;
    queuedTiles.add(attemptId);
    run(() => sendTile(attemptId));
  };

  const onChange = (change: ProctorChange) => {
    if (change.type !== 'record' && change.type !== 'attempt') return;
    run(async () => {
      if (stream.closed || !(await inExam(change.attemptId))) return;
      if (change.type === 'record') {
        const found = await s.proctor.recordById(change.recordId);
        if (found && found.record.kind === 'risk' && !stream.closed) {
          stream.send({ type: 'risk', attempt_id: found.attemptId, record: found.record });
        }
      }
      queueTile(change.attemptId);
    });
  };
  return s.notifier.listen(onChange);
}

/**
 * Streams a candidate's warnings, phone status and the end of their attempt, and keeps their presence
 * on the proctor's console up to date while the stream is open. Returns the cleanup.
 */
export function followAttempt(
  s: LiveDeps,
  log: FastifyBaseLogger,
  first: AttemptRow,
  stream: SseStream<CandidateEvent>,
  /** Timers that outlive the stream (the late "gone offline" announcement); the app clears them on close. */
  lateTimers: Set<NodeJS.Timeout>,
): () => void {
  const attemptId = first.id;
  const run = serial(log);
  let ended = false;
  let phone = s.proctor.mobileStatus(first.phone_seen_at);
  let lastTouch = 0;

  const touch = async (announce: boolean) => {
    lastTouch = s.clock();
    await s.proctor.touch(attemptId);
    if (announce) s.notifier.announce({ type: 'attempt', attemptId });
  };

  /** Sends what changed on the attempt: its end, or a flip of the phone status (announced by the evidence service). */
  const refresh = async () => {
    const a = await s.attempts.byId(attemptId);
    if (!a || stream.closed) return;
    if (!ended && a.phase === ExamPhase.submit) {
      ended = true;
      const bundle = await s.attempts.bundleOf(a);
      stream.send({
        type: 'ended',
        attempt: s.attempts.view(a, bundle),
        reason: finishReasonText(a) ?? 'submit',
      });
    }
    const now = s.proctor.mobileStatus(a.phone_seen_at);
    if (now !== phone) {
      phone = now;
      stream.send({ type: 'phone', mobileDeviceStatus: now });
    }
  };

  stream.send({ type: 'hello', server_time: s.clock() });
  stream.send({ type: 'phone', mobileDeviceStatus: phone });
  run(refresh);
  run(() => touch(true));
  stream.onBeat(() => {
    if (s.clock() - lastTouch >= TOUCH_EVERY_MS) run(() => touch(false));
  });

  const stop = s.notifier.listen((change) => {
    if (change.type === 'warning') {
      run(async () => {
        const w = await s.proctor.warning(change.warningId);
        if (w && w.attemptId === attemptId && !stream.closed) stream.send({ type: 'warning', warning: w.view });
      });
    } else if (change.type === 'attempt') {
      run(refresh);
    }
  }, attemptId);

  return () => {
    stop();
    run(() => touch(true));
    // Once the last contact is older than the online window the tile reads offline: tell the console then.
    const late = setTimeout(() => {
      lateTimers.delete(late);
      s.notifier.announce({ type: 'attempt', attemptId });
    }, ONLINE_WINDOW_MS + 1_000);
    late.unref();
    lateTimers.add(late);
  };
}
