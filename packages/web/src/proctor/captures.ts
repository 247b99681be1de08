/**
 * Captures during the exam (docs/contract.md#evidence-uploads): camera frames and screen captures on the
 * exam's interval, pictures at risk events (pertinent moments), short microphone recordings when
 * there is sound (bytes). Any of them that cannot be sent for now (no connection, the store or the
 * server answering 5xx, no session until the next login) is kept in this browser and sent when the
 * connection returns, under the same object name, so nothing taken is lost and nothing recorded twice.
 *
 * A frame's record is added to `frames` first with its trigger_time and marked isSuccess once its
 * record call succeeds, so the list shows the gaps; a failed frame upload raises 'upload failed'
 * (shown and logged), since a proctor without frames cannot watch, while failed pertinent and byte
 * uploads are only logged: they add to the record but the exam goes on without them.
 */
import { CLIENT_MESSAGES, monitorCalls, subjectCalls } from '@examhall/contract';
import { isApiError, request } from '../api/client.js';
import { serverNow } from '../exam/clock.js';
import { examCredentials } from './credentials.js';
import { meterLevel, type LevelMeter } from './devices.js';
import { grabStill } from './frames.js';
import { openOfflineCaptures, type OfflineCapture, type OfflineCaptureStore } from './offlineCaptures.js';
import { getStreams, isLive, type ProctorStreams } from './streams.js';
import { isQuotaFull, isTemporaryFailure, putObject } from './upload.js';

/** The error a failed frame upload raises. */
export const UPLOAD_FAILED = CLIENT_MESSAGES.uploadFailed;
/** Capture interval when the exam does not say (seconds). */
export const DEFAULT_CAPTURE_INTERVAL_S = 30;
/** Microphone level (0..1) that counts as sound. */
export const SOUND_LEVEL = 0.15;
/** Length of one microphone recording. */
export const BYTE_LENGTH_MS = 5_000;
/** At most one microphone recording per this long. */
export const BYTE_THROTTLE_MS = 60_000;
/** After a recording that could not be uploaded, the next sound is recorded this soon (not a whole throttle later). */
export const BYTE_RETRY_MS = 10_000;
/** How often the microphone level is sampled. */
const LEVEL_SAMPLE_MS = 250;
/** Frames kept in the local list. */
const FRAMES_KEPT = 200;

/** One camera frame in the local `frames` list. */
export interface FrameRecord {
  /** Client id (also the record call's idempotency key). */
  client_id: string;
  /** When it was taken (server-aligned epoch ms). */
  trigger_time: number;
  /** True once the record call succeeded. */
  isSuccess: boolean;
}

/** What the exam page shows about captures. */
export interface CaptureStatus {
  /** Camera frames, oldest first. */
  frames: readonly FrameRecord[];
  /** Set to 'upload failed' after a failed frame upload, cleared by the next good one. */
  error: string | null;
  /** Pictures and recordings kept in this browser, waiting for the connection. */
  offlineWaiting: number;
  /** True once storage refused an upload because the attempt's quota is used up (shown until the page reloads). */
  quotaFull: boolean;
}

let status: CaptureStatus = { frames: [], error: null, offlineWaiting: 0, quotaFull: false };
const statusListeners = new Set<() => void>();

function setStatus(patch: Partial<CaptureStatus>): void {
  status = { ...status, ...patch };
  for (const l of statusListeners) l();
}

function updateFrame(clientId: string, patch: Partial<FrameRecord>): void {
  setStatus({ frames: status.frames.map((f) => (f.client_id === clientId ? { ...f, ...patch } : f)) });
}

/** The current capture status. */
export function getCaptureStatus(): CaptureStatus {
  return status;
}

/** Calls `listener` on every status change; answers the unsubscribe function. */
export function subscribeCaptureStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** Hears every camera frame recorded by the server, with its picture and object key (the face monitor). */
export type FrameListener = (frame: { picture: Blob; key: string }) => void;

const frameListeners = new Set<FrameListener>();

/** Subscribes to recorded camera frames; answers the unsubscribe function. */
export function onFrameRecorded(listener: FrameListener): () => void {
  frameListeners.add(listener);
  return () => frameListeners.delete(listener);
}

/** What startProctoring answers. */
export interface Proctoring {
  /**
   * Takes a camera picture (the screen when there is no camera), uploads it and records it as a
   * pertinent moment of the risk record. Never throws: failures are only logged, and a picture that
   * cannot be sent for now is kept and sent later. Answers the object key once recorded, else null.
   */
  pertinent(riskRecordId?: number): Promise<string | null>;
  /** Stops the timers and the microphone watcher (not the streams: stopStreams() does that). */
  stop(): void;
}

/** True when a failure means "not now" (offline, or see isTemporaryFailure): the capture waits in this browser. */
function isNetworkFailure(e: unknown): boolean {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return true;
  return isTemporaryFailure(e);
}

function log(what: string, e: unknown): void {
  // A full quota is told to the candidate, not only logged: every later capture would fail the same way.
  if (isQuotaFull(e) && !status.quotaFull) setStatus({ quotaFull: true });
  console.warn(`[proctor] ${what}:`, e instanceof Error ? e.message : e);
}

const newId = () => crypto.randomUUID();

/**
 * Starts the captures of the attempt at `examId` from the given streams, or by default from the
 * shared store as it is at each capture (so a device opened again after a reload is used at once).
 * The interval is the exam's capture_interval from /monitor/state.
 */
export function startProctoring(examId: number, streams?: ProctorStreams): Proctoring {
  const current = (): ProctorStreams => streams ?? getStreams();
  const credentials = examCredentials(examId);
  let stopped = false;
  const timers: ReturnType<typeof setInterval>[] = [];
  let meter: LevelMeter | null = null;
  let metered: MediaStream | null = null;
  let recorder: MediaRecorder | null = null;
  let lastByteAt = -Infinity;
  let flushing = false;
  const storePromise: Promise<OfflineCaptureStore | null> = openOfflineCaptures().catch((e: unknown) => {
    log('offline capture store unavailable', e);
    return null;
  });

  async function countOffline(): Promise<void> {
    const store = await storePromise;
    if (store) setStatus({ offlineWaiting: (await store.list(examId)).length });
  }

  /** Uploads a capture and records it by its kind's call; `late` marks a picture sent after it was kept. Answers the key. */
  async function record(c: OfflineCapture, late: boolean): Promise<string> {
    const { key, sha256 } = await putObject(credentials, c.name, c.blob, c.blob.type || 'image/jpeg');
    const body = { exam_id: examId, key, sha256 };
    switch (c.kind) {
      case 'frame':
      case 'screen':
        await request(monitorCalls.capture, {
          body: {
            ...body,
            kind: c.kind,
            trigger_time: c.trigger_time,
            client_id: c.client_id,
            ...(late ? { offline: true } : {}),
          },
        });
        break;
      case 'pertinent':
        await request(subjectCalls.pertinentMoment, {
          body: { ...body, time: c.trigger_time, ...(c.risk_id ? { risk_id: c.risk_id } : {}) },
        });
        break;
      case 'byte':
        await request(subjectCalls.byte, { body: { ...body, time: c.trigger_time, duration_ms: c.duration_ms ?? 0 } });
        break;
    }
    return key;
  }

  /** Keeps a capture for later when the failure means "not now"; answers whether it was kept. */
  async function keepIfTemporary(c: OfflineCapture, e: unknown): Promise<boolean> {
    return isNetworkFailure(e) && keep(c);
  }

  /** Keeps a capture in this browser until it can be sent; answers whether it was kept. */
  async function keep(c: OfflineCapture): Promise<boolean> {
    try {
      const store = await storePromise;
      if (!store) return false;
      await store.put(c);
      await countOffline();
      return true;
    } catch (err) {
      log(`${c.kind} not kept for later`, err);
      return false;
    }
  }

  /** One periodic capture of the camera (frame) or the screen. */
  async function capture(kind: 'frame' | 'screen'): Promise<void> {
    const stream = kind === 'frame' ? current().camera : current().screen;
    if (!isLive(stream)) return;
    const trigger_time = serverNow();
    const client_id = newId();
    const name = `${kind}/${trigger_time}-${client_id.slice(0, 8)}.jpg`;
    if (kind === 'frame') {
      // The record joins the list first, successful or not, so a failed upload shows as a gap.
      setStatus({ frames: [...status.frames, { client_id, trigger_time, isSuccess: false }].slice(-FRAMES_KEPT) });
    }
    let blob: Blob;
    try {
      blob = await grabStill(stream, { mirror: kind === 'frame' });
    } catch (e) {
      log(`${kind} picture not taken`, e);
      if (kind === 'frame') setStatus({ error: UPLOAD_FAILED });
      return;
    }
    const image: OfflineCapture = { client_id, exam_id: examId, kind, name, trigger_time, blob };
    if (!navigator.onLine) {
      await keep(image);
      return;
    }
    try {
      const key = await record(image, false);
      if (kind === 'frame') {
        updateFrame(client_id, { isSuccess: true });
        setStatus({ error: null });
        for (const listener of frameListeners) listener({ picture: blob, key });
      }
    } catch (e) {
      if (isQuotaFull(e)) setStatus({ quotaFull: true });
      if (kind === 'frame') setStatus({ error: UPLOAD_FAILED });
      // A picture kept for later (no connection, or no session until the next login) is a warning, not an error.
      if (kind === 'frame' && !isNetworkFailure(e)) {
        console.error(`[proctor] ${UPLOAD_FAILED}:`, e instanceof Error ? e.message : e);
      } else log(`${kind} upload failed`, e);
      await keepIfTemporary(image, e);
    }
  }

  /** Sends the captures kept in this browser, oldest first; stops at the first failure that means "not now". */
  async function flushOffline(): Promise<void> {
    if (flushing || stopped || !navigator.onLine) return;
    flushing = true;
    try {
      const store = await storePromise;
      if (!store) return;
      for (const kept of await store.list(examId)) {
        if (stopped) break;
        try {
          await record(kept, true);
          await store.remove(kept.client_id);
          if (kept.kind === 'frame') updateFrame(kept.client_id, { isSuccess: true });
        } catch (e) {
          log(`kept ${kept.kind} upload failed`, e);
          if (isNetworkFailure(e)) break;
          // Refused for good (e.g. the attempt is over): keeping it would only block the rest.
          if (isApiError(e) && e.status >= 400 && e.status < 500) await store.remove(kept.client_id);
          else break;
        }
      }
      await countOffline();
    } finally {
      flushing = false;
    }
  }

  /** One look at the microphone level: a few seconds are recorded when there is sound, throttled. */
  function listen(): void {
    const mic = current().microphone;
    if (stopped || recorder || !isLive(mic)) return;
    if (mic !== metered) {
      // A new microphone stream (opened again after a reload or a failure): measure that one.
      meter?.close();
      meter = null;
      metered = mic;
      try {
        meter = meterLevel(mic);
      } catch (e) {
        log('microphone level unavailable', e);
      }
    }
    if (!meter || performance.now() - lastByteAt < BYTE_THROTTLE_MS) return;
    if (meter.level() < SOUND_LEVEL) return;
    lastByteAt = performance.now();
    void recordByte(mic);
  }

  async function recordByte(mic: MediaStream): Promise<void> {
    const time = serverNow();
    const started = performance.now();
    let blob: Blob;
    try {
      const type = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg'].find((t) => MediaRecorder.isTypeSupported(t));
      const rec = new MediaRecorder(mic, type ? { mimeType: type } : undefined);
      recorder = rec;
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => {
        if (e.data.size > 0) chunks.push(e.data);
      };
      const finished = new Promise<void>((resolve) => (rec.onstop = () => resolve()));
      rec.start();
      await new Promise((r) => setTimeout(r, BYTE_LENGTH_MS));
      if (rec.state !== 'inactive') rec.stop();
      await finished;
      blob = new Blob(chunks, { type: rec.mimeType || 'audio/webm' });
    } catch (e) {
      log('recording failed', e);
      retrySoon();
      return;
    } finally {
      recorder = null;
    }
    if (blob.size === 0) {
      retrySoon();
      return;
    }
    const client_id = newId();
    const recording: OfflineCapture = {
      client_id,
      exam_id: examId,
      kind: 'byte',
      name: `byte/${time}-${client_id.slice(0, 8)}.${blob.type.includes('ogg') ? 'ogg' : 'webm'}`,
      trigger_time: time,
      blob,
      duration_ms: Math.round(performance.now() - started),
    };
    try {
      await record(recording, false);
    } catch (e) {
      // Failed byte uploads are only logged; one that was not kept is followed soon by the next sound's.
      log('byte upload failed', e);
      if (!(await keepIfTemporary(recording, e))) retrySoon();
    }
  }

  /** A recording that was lost does not hold back the next one for the whole throttle. */
  function retrySoon(): void {
    lastByteAt = Math.min(lastByteAt, performance.now() - BYTE_THROTTLE_MS + BYTE_RETRY_MS);
  }

  async function begin(): Promise<void> {
    let intervalS = DEFAULT_CAPTURE_INTERVAL_S;
    try {
      intervalS = (await request(monitorCalls.monitorState, { query: { exam_id: examId } })).capture_interval;
    } catch (e) {
      log('capture interval unknown, using the default', e);
    }
    if (stopped) return;
    const ms = Math.max(1, intervalS || DEFAULT_CAPTURE_INTERVAL_S) * 1000;
    const tick = () => {
      if (stopped) return;
      void capture('frame');
      void capture('screen');
      void flushOffline();
    };
    tick();
    timers.push(setInterval(tick, ms));
    timers.push(setInterval(listen, LEVEL_SAMPLE_MS));
  }

  const onOnline = () => void flushOffline();
  window.addEventListener('online', onOnline);
  void countOffline();
  void begin();

  return {
    async pertinent(riskRecordId) {
      const { camera, screen } = current();
      const stream = isLive(camera) ? camera : isLive(screen) ? screen : null;
      if (!stream) return null;
      const time = serverNow();
      const client_id = newId();
      let picture: OfflineCapture;
      try {
        picture = {
          client_id,
          exam_id: examId,
          kind: 'pertinent',
          name: `pertinent/${time}-${client_id.slice(0, 8)}.jpg`,
          trigger_time: time,
          blob: await grabStill(stream, { mirror: stream === camera }),
          ...(riskRecordId ? { risk_id: riskRecordId } : {}),
        };
      } catch (e) {
        log('pertinent picture not taken', e);
        return null;
      }
      try {
        return await record(picture, false);
      } catch (e) {
        // Failed pertinent uploads are only logged: the risk record they illustrate is kept without them.
        log('pertinent upload failed', e);
        await keepIfTemporary(picture, e);
        return null;
      }
    },
    stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      window.removeEventListener('online', onOnline);
      if (recorder && recorder.state !== 'inactive') recorder.stop();
      meter?.close();
    },
  };
}
