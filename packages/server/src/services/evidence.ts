import { createHash, randomBytes } from 'node:crypto';
import {
  api,
  detail,
  ExamPhase,
  riskCategoryOf,
  type EvidenceData,
  type EvidenceKind,
  type MonitorStateData,
  type PhoneSessionData,
  type RiskEventId,
  type StsData,
  type VerifyEvidenceData,
} from '@examhall/contract';
import QRCode from 'qrcode';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { fail } from '../http/errors.js';
import type { AttemptRow } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { CheckRepository } from '../repositories/checks.js';
import { EvidenceRepository } from '../repositories/evidence.js';
import { StorageUsageRepository, type StorageQuota } from '../repositories/storageUsage.js';
import { RiskRepository } from '../repositories/risk.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { keyLengthProblem, type ObjectStore } from '../storage/objectStore.js';
import { sniffImage, sniffRecording } from '../storage/sniff.js';
import type { UploadCredentialIssuer } from '../storage/sts.js';
import type { AccessService, StaffActor } from './access.js';
import type { AttemptService } from './attempts.js';
import type { ExamBundle } from './catalog.js';
import { attemptPrefix, GENESIS_HASH, isUnder, riskHash, type RiskService } from './risk.js';
import type { TokenService } from './tokens.js';

/** How long upload credentials live. */
export const STS_TTL_SECONDS = 15 * 60;
/**
 * How long after an attempt ends captures, pertinent moments and recordings taken before the end are still
 * accepted: pictures taken offline are uploaded on reconnect, and nothing the candidate's page holds is lost.
 */
export const LATE_EVIDENCE_MS = 15 * 60_000;
/** The phone counts as connected while its last report is this recent. */
export const PHONE_FRESH_MS = 10_000;
/** How far in the future a client's trigger time may be (clock drift). */
const FUTURE_SKEW_MS = 60_000;
/** Detail of a capture taken offline (counted into offlineImages). */
const OFFLINE_DETAIL = 'offline';
/** How many first bytes of an object tell its type. */
const SNIFF_BYTES = 64;
/** Kinds that may still arrive after the end when taken before it. */
const LATE_KINDS: ReadonlySet<EvidenceKind> = new Set(['frame', 'screen', 'phone', 'pertinent', 'byte']);

/** Bytes budgeted per object: a 1280x720 JPEG frame is 100 to 300 KB, a full-screen capture up to about 1 MB. */
const QUOTA_BYTES_PER_OBJECT = 1024 * 1024;
/** Minutes of device checks before the exam that the quota allows for. */
const QUOTA_CHECK_MINUTES = 30;
/** How many times what the settings lead us to expect an attempt may upload (retries, reloads, a second tab). */
const QUOTA_MARGIN = 2;
/** Objects of no interval: the first picture, the signature and a few more. */
const QUOTA_FIXED_OBJECTS = 20;

/**
 * An attempt's storage quota, derived from its exam's capture settings: over the exam's time (its own end when
 * it has one, extra time and long windows included) plus the device checks and the late-upload grace, one
 * picture per capture interval from each open stream (camera, screen, phone) and as many pertinent moments,
 * plus a microphone recording a minute (the page's throttle), all times QUOTA_MARGIN; capped by the ceiling.
 */
export function uploadQuota(
  settings: Pick<
    ExamBundle['settings'],
    'capture_interval' | 'is_close_camera' | 'is_close_screen' | 'is_close_phone' | 'is_close_microphone'
  >,
  timeMinutes: number,
  attempt: Pick<AttemptRow, 'started_at' | 'end_at'>,
  ceiling: StorageQuota,
): StorageQuota {
  const own =
    attempt.started_at !== null && attempt.end_at !== null
      ? (Number(attempt.end_at) - Number(attempt.started_at)) / 60_000
      : 0;
  const minutes = Math.max(timeMinutes, own) + QUOTA_CHECK_MINUTES + LATE_EVIDENCE_MS / 60_000;
  const shots = Math.ceil((minutes * 60) / Math.max(1, settings.capture_interval));
  const streams = [settings.is_close_camera, settings.is_close_screen, settings.is_close_phone].filter(
    (closed) => closed !== 1,
  ).length;
  const recordings = settings.is_close_microphone === 1 ? 0 : Math.ceil(minutes);
  const objects = QUOTA_MARGIN * (shots * (streams + 1) + recordings + QUOTA_FIXED_OBJECTS);
  return {
    maxObjects: Math.min(ceiling.maxObjects, objects),
    maxBytes: Math.min(ceiling.maxBytes, objects * QUOTA_BYTES_PER_OBJECT),
  };
}

export { attemptPrefix };

/** An object the browser says it uploaded. */
interface UploadedEvidence {
  kind: EvidenceKind;
  key: string;
  sha256: string;
  triggerTime: number;
  clientId: string;
  detail?: string;
}

/** Who the phone page is: the attempt its link was made for, and the candidate. */
export interface PhoneCaller {
  candidate: Candidate;
  attempt: AttemptRow;
}

/**
 * Evidence of an attempt: upload credentials, captures, checks and monitor data, all appended to the attempt's
 * hash chain after the stored bytes are checked against the SHA-256 the browser sent; the phone page; and the
 * verification of the chain and every file.
 */
export class EvidenceService {
  private readonly repo: EvidenceRepository;
  private readonly usage: StorageUsageRepository;
  private lastPhoneSweep: number;

  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly risk: RiskService,
    private readonly store: ObjectStore,
    private readonly issuer: UploadCredentialIssuer | null,
    private readonly tokens: TokenService,
    private readonly notifier: ProctorNotifier,
    private readonly config: Pick<Config, 'publicUrl' | 'storageQuotaCeiling'>,
    private readonly clock: () => number,
    private readonly access: AccessService,
  ) {
    this.repo = new EvidenceRepository(db);
    this.usage = new StorageUsageRepository(db);
    this.lastPhoneSweep = clock();
  }

  /** The candidate's attempt at an exam, or exam_not_started (exam_detail_missing when not invited). */
  private async attemptOf(c: Candidate, examId: number): Promise<{ attempt: AttemptRow; bundle: ExamBundle }> {
    await this.attempts.head(examId);
    const attempt = await this.attempts.current(c, examId);
    if (!attempt) {
      await this.attempts.invitationByExam(c, examId);
      throw fail('exam_not_started');
    }
    return { attempt, bundle: await this.attempts.bundleOf(attempt) };
  }

  /** When an attempt ended (epoch ms), or null while it runs. */
  private endedAt(a: AttemptRow): number | null {
    if (a.phase !== ExamPhase.submit) return null;
    // A timed-out attempt may be finished (finished_at) well after its time was up (end_at): the earlier counts.
    const ends = [a.finished_at, a.end_at].filter((v) => v !== null).map(Number);
    return ends.length > 0 ? Math.min(...ends) : this.clock();
  }

  /** Refuses writes to a finished attempt, except late evidence taken before the end (see LATE_EVIDENCE_MS). */
  private checkWritable(a: AttemptRow, kind: EvidenceKind | 'check', triggerTime: number): void {
    if (triggerTime > this.clock() + FUTURE_SKEW_MS) throw fail('validation_error', 'trigger_time is in the future');
    const ended = this.endedAt(a);
    if (ended === null) return;
    const late =
      kind !== 'check' &&
      LATE_KINDS.has(kind) &&
      triggerTime <= ended &&
      triggerTime >= Number(a.created_at) &&
      this.clock() <= ended + LATE_EVIDENCE_MS;
    if (!late) throw fail('exam_finished');
  }

  // ---- credentials ----

  /** Upload credentials for the candidate's attempt, good only for its prefix. */
  async stsToken(c: Candidate, examId: number): Promise<StsData> {
    const { attempt, bundle } = await this.attemptOf(c, examId);
    return this.credentialsFor(attempt, bundle);
  }

  private async credentialsFor(attempt: AttemptRow, bundle: ExamBundle): Promise<StsData> {
    const ended = this.endedAt(attempt);
    // Late uploads need credentials too; after the grace nothing more is accepted, so none are given.
    if (ended !== null && this.clock() > ended + LATE_EVIDENCE_MS) throw fail('exam_finished');
    if (!this.issuer) throw new Error('object storage has no upload credentials configured');
    // Set (again) before every issue: extra time given since may raise it.
    await this.usage.setQuota(attemptPrefix(attempt), this.quotaOf(attempt, bundle));
    return this.issuer.issue(attemptPrefix(attempt), STS_TTL_SECONDS, `examhall-attempt-${attempt.id}`);
  }

  /** The attempt's storage quota: see {@link uploadQuota}. */
  private quotaOf(attempt: AttemptRow, bundle: ExamBundle): StorageQuota {
    return uploadQuota(bundle.settings, bundle.exam.time_minutes, attempt, this.config.storageQuotaCeiling);
  }

  /**
   * Counts a recorded object against the attempt's quota where the store cannot count uploads itself
   * (S3-compatible storage): past the quota the object is deleted and storage_quota_exceeded answered.
   */
  private async countRecorded(attempt: AttemptRow, key: string, size: number): Promise<void> {
    if (this.store.countsUploads) return;
    const prefix = attemptPrefix(attempt);
    let counted = await this.usage.reserve(prefix, size);
    if (counted === 'none') {
      await this.usage.setQuota(prefix, this.quotaOf(attempt, await this.attempts.bundleOf(attempt)));
      counted = await this.usage.reserve(prefix, size);
    }
    if (counted !== 'ok') {
      await this.store.delete(key);
      throw fail('storage_quota_exceeded');
    }
  }

  // ---- evidence the browser uploaded ----

  /**
   * Checks an uploaded object (under the attempt's prefix, present, SHA-256 as sent) and appends its record;
   * a retry with the same client id answers the first record.
   */
  private async recordUploaded(attempt: AttemptRow, e: UploadedEvidence): Promise<EvidenceData & { fresh: boolean }> {
    const seen = await new RiskRepository(this.db).byClientId(attempt.id, e.clientId);
    if (seen) return { id: seen.id, hash: seen.hash, fresh: false };
    this.checkWritable(attempt, e.kind, e.triggerTime);
    const tooLong = keyLengthProblem(e.key);
    if (tooLong) throw fail('validation_error', `key: ${tooLong}`);
    if (!isUnder(e.key, attemptPrefix(attempt))) throw fail('key_outside_attempt');
    const key = e.key;
    const found = await this.digestOf(key);
    if (!found) throw fail('evidence_missing');
    if (found.sha256 !== e.sha256) throw fail('evidence_digest_mismatch');
    // The store keeps whatever bytes were put; a "picture" that is HTML would be served to the proctor.
    if (e.kind === 'byte' ? !sniffRecording(found.head) : !sniffImage(found.head))
      throw fail(
        'unsupported_media_type',
        e.kind === 'byte'
          ? 'key: the object is not a WebM, Ogg, WAV or M4A recording'
          : 'key: the object is not a PNG, JPEG, GIF or WebP picture',
      );
    await this.countRecorded(attempt, key, found.size);
    return this.risk.append(attempt.id, e.clientId, {
      attempt_id: attempt.id,
      kind: e.kind,
      risk: 0,
      category: 0,
      trigger_time: e.triggerTime,
      detail: e.detail ?? '',
      image_key: key,
      sha256: found.sha256,
      size: found.size,
    });
  }

  /** SHA-256, size and first bytes (enough to tell its type) of a stored object, read as a stream; null when it is not there. */
  private async digestOf(key: string): Promise<{ sha256: string; size: number; head: Buffer } | null> {
    const found = await this.store.stream(key);
    if (!found) return null;
    const hash = createHash('sha256');
    let size = 0;
    const head: Buffer[] = [];
    for await (const chunk of found.stream) {
      hash.update(chunk as Buffer);
      if (size < SNIFF_BYTES) head.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { sha256: hash.digest('hex'), size, head: Buffer.concat(head).subarray(0, SNIFF_BYTES) };
  }

  /** POST /monitor/first-picture. */
  async firstPicture(
    c: Candidate,
    body: { exam_id: number; key: string; sha256: string; trigger_time?: number | undefined },
  ): Promise<EvidenceData> {
    const { attempt } = await this.attemptOf(c, body.exam_id);
    const saved = await this.recordUploaded(attempt, {
      kind: 'first_picture',
      key: body.key,
      sha256: body.sha256,
      triggerTime: body.trigger_time ?? this.clock(),
      clientId: `first_picture:${body.key}`,
    });
    if (saved.fresh) {
      await this.repo.setMonitorData(attempt.id, { first_picture_key: body.key });
      this.notifier.announce({ type: 'attempt', attemptId: attempt.id });
    }
    return { id: saved.id, hash: saved.hash };
  }

  /** POST /monitor/capture: a frame, screen capture, phone picture or the signature. */
  async capture(
    c: Candidate,
    body: {
      exam_id: number;
      kind: 'frame' | 'screen' | 'phone' | 'signature';
      key: string;
      sha256: string;
      trigger_time: number;
      offline?: boolean | undefined;
      client_id: string;
    },
  ): Promise<EvidenceData> {
    const { attempt } = await this.attemptOf(c, body.exam_id);
    const saved = await this.recordUploaded(attempt, {
      kind: body.kind,
      key: body.key,
      sha256: body.sha256,
      triggerTime: body.trigger_time,
      clientId: body.client_id,
      detail: body.offline ? OFFLINE_DETAIL : '',
    });
    if (saved.fresh && body.kind === 'signature') {
      await this.repo.setMonitorData(attempt.id, { signature_key: body.key });
    }
    // The proctor's tile shows the latest picture and the signature.
    if (saved.fresh) this.notifier.announce({ type: 'attempt', attemptId: attempt.id });
    return { id: saved.id, hash: saved.hash };
  }

  /** POST /answer/pertinent-moment: a picture taken at a risk event. */
  async pertinent(
    c: Candidate,
    body: { exam_id: number; key: string; sha256: string; time: number; risk_id?: number | undefined },
  ): Promise<EvidenceData> {
    const { attempt } = await this.attemptOf(c, body.exam_id);
    const saved = await this.recordUploaded(attempt, {
      kind: 'pertinent',
      key: body.key,
      sha256: body.sha256,
      triggerTime: body.time,
      clientId: `pertinent:${body.key}`,
      detail: body.risk_id ? detail.riskPicture(body.risk_id) : '',
    });
    return { id: saved.id, hash: saved.hash };
  }

  /** POST /answer/byte: a short microphone recording. */
  async byte(
    c: Candidate,
    body: { exam_id: number; key: string; sha256: string; time: number; duration_ms: number },
  ): Promise<EvidenceData> {
    const { attempt } = await this.attemptOf(c, body.exam_id);
    const saved = await this.recordUploaded(attempt, {
      kind: 'byte',
      key: body.key,
      sha256: body.sha256,
      triggerTime: body.time,
      clientId: `byte:${body.key}`,
      detail: detail.recording(body.duration_ms),
    });
    return { id: saved.id, hash: saved.hash };
  }

  /** GET /monitor/state: the monitor data of the candidate's attempt. */
  async state(c: Candidate, examId: number): Promise<MonitorStateData> {
    const { attempt, bundle } = await this.attemptOf(c, examId);
    const rows = await this.repo.byKinds(attempt.id, ['frame', 'screen', 'phone', 'pertinent', 'byte']);
    const checks = await new CheckRepository(this.db).results(attempt.id);
    const phoneSeen = attempt.phone_seen_at == null ? null : Number(attempt.phone_seen_at);
    return {
      firstPicture: attempt.first_picture_key,
      microphoneId: attempt.microphone_id,
      mobileDeviceStatus: this.phoneStatus(phoneSeen),
      signature: attempt.signature_key,
      frames: rows
        .filter((r) => r.kind === 'frame')
        .map((r) => ({ id: r.id, key: r.image_key ?? '', trigger_time: Number(r.trigger_time), isSuccess: true })),
      pertinents: rows.filter((r) => r.kind === 'pertinent').map((r) => ({ id: r.id, time: Number(r.trigger_time) })),
      bytes: rows.filter((r) => r.kind === 'byte').map((r) => ({ id: r.id, time: Number(r.trigger_time) })),
      offlineImages: rows.filter((r) => r.detail === OFFLINE_DETAIL).length,
      checks: [...checks].map(([step, result]) => ({ step, result })),
      capture_interval: bundle.settings.capture_interval,
      phone_seen_at: phoneSeen,
    };
  }

  /** 1 while the phone's last report is fresh. */
  phoneStatus(phoneSeenAt: number | null): 0 | 1 {
    return phoneSeenAt !== null && this.clock() - phoneSeenAt <= PHONE_FRESH_MS ? 1 : 0;
  }

  // ---- evidence the server makes ----

  /**
   * Stores a picture the server holds (e.g. the face check's) under the attempt's prefix and appends its
   * evidence record; with `risk`, a risk record pointing at the picture follows it in the chain.
   */
  async recordServerPicture(
    attempt: AttemptRow,
    kind: EvidenceKind,
    bytes: Buffer,
    opts: { ext?: string; triggerTime?: number; detail?: string; risk?: RiskEventId; riskDetail?: string } = {},
  ): Promise<{ key: string; id: number; hash: string; riskId: number | null; riskHash: string | null }> {
    const triggerTime = opts.triggerTime ?? this.clock();
    const ext = (opts.ext ?? 'jpg').replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'bin';
    const key = `${attemptPrefix(attempt)}${kind}/${triggerTime}-${randomBytes(6).toString('hex')}.${ext}`;
    const { sha256, size } = await this.store.put(key, bytes);
    const saved = await this.risk.append(attempt.id, `server:${key}`, {
      attempt_id: attempt.id,
      kind,
      risk: 0,
      category: 0,
      trigger_time: triggerTime,
      detail: opts.detail ?? '',
      image_key: key,
      sha256,
      size,
    });
    let riskRecord: { id: number; hash: string } | null = null;
    if (opts.risk !== undefined) {
      riskRecord = await this.risk.append(attempt.id, `server-risk:${key}`, {
        attempt_id: attempt.id,
        risk: opts.risk,
        category: riskCategoryOf(opts.risk),
        trigger_time: triggerTime,
        detail: opts.riskDetail ?? opts.detail ?? '',
        image_key: key,
      });
    }
    return { key, id: saved.id, hash: saved.hash, riskId: riskRecord?.id ?? null, riskHash: riskRecord?.hash ?? null };
  }

  // ---- the phone page ----

  /** A link that opens the phone page for the candidate's attempt; its token is short-lived and stored hashed. */
  async phoneLink(c: Candidate, examId: number, anid: number): Promise<{ url: string; expires_at: number }> {
    await this.attempts.invitation(c, examId, anid);
    const { attempt, bundle } = await this.attemptOf(c, examId);
    if (attempt.phase === ExamPhase.submit) throw fail('exam_finished');
    // Long enough for the device checks and the whole exam, and no longer.
    const ttl = bundle.exam.time_minutes * 60_000 + 30 * 60_000;
    const { token, expiresAt } = await this.tokens.issue('phone', attempt.id, ttl);
    return { url: `${this.config.publicUrl.replace(/\/+$/, '')}/phone?auth=${token}`, expires_at: expiresAt };
  }

  /** The phone link as a QR code (SVG data URL). */
  async phoneQr(
    c: Candidate,
    examId: number,
    anid: number,
  ): Promise<{ image: string; url: string; expires_at: number }> {
    const link = await this.phoneLink(c, examId, anid);
    const svg = await QRCode.toString(link.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    return { ...link, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** The attempt and candidate of a phone token, or phone_link_invalid. */
  async resolvePhone(token: string | undefined): Promise<PhoneCaller> {
    const attemptId = await this.tokens.resolve('phone', token);
    if (attemptId === null) throw fail('phone_link_invalid');
    const attempt = await this.attempts.byId(attemptId);
    const candidate = attempt ? await this.repo.candidateOf(attemptId) : undefined;
    if (!attempt || !candidate) throw fail('phone_link_invalid');
    return { attempt, candidate };
  }

  /** Records a report from the phone; announces the attempt when its phone status flips to connected. */
  private async phoneSeen(attempt: AttemptRow): Promise<void> {
    const before = await this.repo.touchPhone(attempt.id, this.clock());
    if (this.phoneStatus(before) === 0) this.notifier.announce({ type: 'attempt', attemptId: attempt.id });
  }

  /** GET /phone/session (also the phone's heartbeat). */
  async phoneSession(p: PhoneCaller): Promise<PhoneSessionData> {
    const attempt = (await this.attempts.current(p.candidate, p.attempt.exam_id)) ?? p.attempt;
    const bundle = await this.attempts.bundleOf(attempt);
    if (attempt.id !== p.attempt.id) throw fail('phone_link_invalid');
    if (attempt.phase !== ExamPhase.submit) await this.phoneSeen(attempt);
    return {
      exam_id: attempt.exam_id,
      exam_name: bundle.exam.name,
      capture_interval: bundle.settings.capture_interval,
      phase: attempt.phase as PhoneSessionData['phase'],
      end_time: attempt.end_at === null ? null : Number(attempt.end_at),
      server_time: this.clock(),
    };
  }

  /** GET /phone/sts-token. */
  async phoneSts(p: PhoneCaller): Promise<StsData> {
    const attempt = (await this.attempts.byId(p.attempt.id)) ?? p.attempt;
    return this.credentialsFor(attempt, await this.attempts.bundleOf(attempt));
  }

  /** POST /phone/picture. */
  async phonePicture(
    p: PhoneCaller,
    body: { key: string; sha256: string; trigger_time: number; client_id: string },
  ): Promise<EvidenceData> {
    const attempt = (await this.attempts.current(p.candidate, p.attempt.exam_id)) ?? p.attempt;
    if (attempt.id !== p.attempt.id) throw fail('phone_link_invalid');
    const saved = await this.recordUploaded(attempt, {
      kind: 'phone',
      key: body.key,
      sha256: body.sha256,
      triggerTime: body.trigger_time,
      clientId: body.client_id,
    });
    if (attempt.phase !== ExamPhase.submit) await this.phoneSeen(attempt);
    if (saved.fresh) this.notifier.announce({ type: 'attempt', attemptId: attempt.id });
    return { id: saved.id, hash: saved.hash };
  }

  /** Announces attempts whose phone went quiet since the last sweep (their mobileDeviceStatus fell to 0). */
  async sweepPhones(): Promise<number> {
    const now = this.clock();
    const quiet = await this.repo.phonesLastSeenBetween(this.lastPhoneSweep - PHONE_FRESH_MS, now - PHONE_FRESH_MS);
    this.lastPhoneSweep = now;
    for (const attemptId of quiet) this.notifier.announce({ type: 'attempt', attemptId });
    return quiet.length;
  }

  // ---- verification ----

  /** GET /admin/evidence/verify: `verify` for a staff member who may see the attempt. */
  async verifyAs(staff: StaffActor, attemptId: number): Promise<VerifyEvidenceData> {
    await this.access.requireFor(staff, api.verifyEvidence, attemptId);
    return this.verify(attemptId);
  }

  /** Checks an attempt's chain (every hash and link) and re-reads every evidence file against its SHA-256. */
  async verify(attemptId: number): Promise<VerifyEvidenceData> {
    const attempt = await this.attempts.byId(attemptId);
    if (!attempt) throw fail('not_found', `no attempt ${attemptId}`);
    const rows = await new RiskRepository(this.db).chain(attemptId);
    const problems: VerifyEvidenceData['problems'] = [];
    let prev = GENESIS_HASH;
    let files = 0;
    for (const r of rows) {
      if (r.prev_hash !== prev)
        problems.push({ record_id: r.id, kind: 'chain', detail: 'does not link to the record before it' });
      else if (riskHash(r.prev_hash, r) !== r.hash)
        problems.push({
          record_id: r.id,
          kind: 'chain',
          detail: 'its fields do not match its hash (changed after it was written)',
        });
      prev = r.hash;
      if (r.sha256 && r.image_key) {
        files++;
        let found: { sha256: string; size: number } | null;
        try {
          found = await this.digestOf(r.image_key);
        } catch (err) {
          problems.push({ record_id: r.id, kind: 'missing', detail: `${r.image_key}: ${(err as Error).message}` });
          continue;
        }
        if (!found) problems.push({ record_id: r.id, kind: 'missing', detail: `${r.image_key} is not in storage` });
        else if (found.sha256 !== r.sha256)
          problems.push({
            record_id: r.id,
            kind: 'digest',
            detail: `${r.image_key} has SHA-256 ${found.sha256}, the record says ${r.sha256}`,
          });
      }
    }
    return { ok: problems.length === 0, records: rows.length, files, problems };
  }
}
