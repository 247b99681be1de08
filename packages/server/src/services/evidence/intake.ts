import { randomBytes } from 'node:crypto';
import type { api } from '@examhall/contract';
import {
  detail,
  isCapturedOffline,
  riskCategoryOf,
  type EvidenceData,
  type EvidenceKind,
  type MonitorStateData,
  type ParsedBody,
  type RiskEventId,
  type StsData,
} from '@examhall/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { fail } from '../../errors.js';
import type { AttemptRow } from '../../repositories/attempts.js';
import type { Candidate } from '../../repositories/candidates.js';
import { CheckRepository } from '../../repositories/checks.js';
import { EvidenceRepository } from '../../repositories/evidence.js';
import { RiskRepository } from '../../repositories/risk.js';
import { StorageUsageRepository, type StorageQuota } from '../../repositories/storageUsage.js';
import type { ProctorNotifier } from '../../proctoring/notifier.js';
import { OBJECT_MAX_BYTES } from '../../storage/budget.js';
import { ObjectTooLargeError, type StoredDigest } from '../../storage/digest.js';
import { keyLengthProblem, type ObjectStore } from '../../storage/objectStore.js';
import { sniffImage, sniffRecording } from '../../storage/sniff.js';
import type { UploadCredentialIssuer } from '../../storage/sts.js';
import type { AttemptService } from '../attempts.js';
import type { ExamBundle } from '../catalog.js';
import { attemptPrefix, isUnder } from '../chain.js';
import type { RiskService } from '../risk.js';
import {
  acceptsEvidence,
  endedAt,
  FUTURE_SKEW_MS,
  LATE_EVIDENCE_MS,
  phoneStatus,
  STS_TTL_SECONDS,
  uploadQuota,
} from './rules.js';

/** An object the browser says it uploaded. */
export interface UploadedEvidence {
  kind: EvidenceKind;
  key: string;
  sha256: string;
  triggerTime: number;
  clientId: string;
  detail?: string;
}

/**
 * What an attempt's pages upload: credentials scoped to the attempt's prefix and quota, then each capture,
 * pertinent moment and recording, appended to the attempt's hash chain once the stored bytes match the SHA-256
 * the browser sent and are the kind of file they claim; and pictures the server itself takes.
 */
export class EvidenceIntakeService {
  private readonly repo: EvidenceRepository;
  private readonly usage: StorageUsageRepository;
  /** Told of every fresh camera frame (the server checks a sample of them). */
  afterFrame: ((frame: { attemptId: number; recordId: number; key: string }) => Promise<unknown>) | null = null;

  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly risk: RiskService,
    private readonly store: ObjectStore,
    private readonly issuer: UploadCredentialIssuer | null,
    private readonly notifier: ProctorNotifier,
    private readonly config: Pick<Config, 'storageQuotaCeiling'>,
    private readonly clock: () => number,
  ) {
    this.repo = new EvidenceRepository(db);
    this.usage = new StorageUsageRepository(db);
  }

  /** The candidate's attempt at an exam with what it runs on. */
  private async attemptOf(c: Candidate, examId: number): Promise<{ attempt: AttemptRow; bundle: ExamBundle }> {
    await this.attempts.head(examId);
    const attempt = await this.attempts.started(c, examId);
    return { attempt, bundle: await this.attempts.bundleOf(attempt) };
  }

  // ---- credentials ----

  /** GET /monitor/sts-token: upload credentials for the candidate's attempt, good only for its prefix. */
  async stsToken(c: Candidate, examId: number): Promise<StsData> {
    const { attempt, bundle } = await this.attemptOf(c, examId);
    return this.credentialsFor(attempt, bundle);
  }

  /** Upload credentials for an attempt's prefix, its quota set (again) first. */
  async credentialsFor(attempt: AttemptRow, bundle: ExamBundle): Promise<StsData> {
    const ended = endedAt(attempt, this.clock());
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
   * Checks an uploaded object (under the attempt's prefix, present, SHA-256 as sent, the kind of file it claims)
   * and appends its record; a retry with the same client id answers the first record.
   */
  async recordUploaded(attempt: AttemptRow, e: UploadedEvidence): Promise<EvidenceData & { fresh: boolean }> {
    const seen = await new RiskRepository(this.db).byClientId(attempt.id, e.clientId);
    if (seen) return { id: seen.id, hash: seen.hash, fresh: false };
    if (e.triggerTime > this.clock() + FUTURE_SKEW_MS) throw fail('validation_error', 'trigger_time is in the future');
    if (!acceptsEvidence(attempt, e.kind, e.triggerTime, this.clock())) throw fail('exam_finished');
    const tooLong = keyLengthProblem(e.key);
    if (tooLong) throw fail('validation_error', `key: ${tooLong}`);
    if (!isUnder(e.key, attemptPrefix(attempt))) throw fail('key_outside_attempt');
    const found = await this.digestWithin(e);
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
    await this.countRecorded(attempt, e.key, found.size);
    return this.risk.append(attempt.id, e.clientId, {
      attempt_id: attempt.id,
      kind: e.kind,
      risk: 0,
      category: 0,
      trigger_time: e.triggerTime,
      detail: e.detail ?? '',
      image_key: e.key,
      sha256: found.sha256,
      size: found.size,
    });
  }

  /**
   * The uploaded object's digest, or evidence_too_large when it is larger than its kind may be (storage/budget.ts);
   * the object is then deleted: unrecorded it only takes room, and on S3 nothing else would remove it.
   */
  private async digestWithin(e: UploadedEvidence): Promise<StoredDigest | null> {
    const limit = OBJECT_MAX_BYTES[e.kind];
    try {
      return await this.store.digest(e.key, limit);
    } catch (err) {
      if (!(err instanceof ObjectTooLargeError)) throw err;
      await this.store.delete(e.key);
      throw fail('evidence_too_large', `key: a ${e.kind} is at most ${limit} bytes; this object is ${err.size}`);
    }
  }

  /** POST /monitor/first-picture. */
  async firstPicture(c: Candidate, body: ParsedBody<typeof api.firstPicture>): Promise<EvidenceData> {
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
  async capture(c: Candidate, body: ParsedBody<typeof api.capture>): Promise<EvidenceData> {
    const { attempt } = await this.attemptOf(c, body.exam_id);
    const saved = await this.recordUploaded(attempt, {
      kind: body.kind,
      key: body.key,
      sha256: body.sha256,
      triggerTime: body.trigger_time,
      clientId: body.client_id,
      detail: body.offline ? detail.capturedOffline() : '',
    });
    if (saved.fresh && body.kind === 'signature') {
      await this.repo.setMonitorData(attempt.id, { signature_key: body.key });
    }
    if (saved.fresh && body.kind === 'frame' && this.afterFrame) {
      await this.afterFrame({ attemptId: attempt.id, recordId: saved.id, key: body.key });
    }
    // The proctor's tile shows the latest picture and the signature.
    if (saved.fresh) this.notifier.announce({ type: 'attempt', attemptId: attempt.id });
    return { id: saved.id, hash: saved.hash };
  }

  /** POST /answer/pertinent-moment: a picture taken at a risk event. */
  async pertinent(c: Candidate, body: ParsedBody<typeof api.pertinentMoment>): Promise<EvidenceData> {
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
  async byte(c: Candidate, body: ParsedBody<typeof api.byte>): Promise<EvidenceData> {
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
      mobileDeviceStatus: phoneStatus(phoneSeen, this.clock()),
      signature: attempt.signature_key,
      frames: rows
        .filter((r) => r.kind === 'frame')
        .map((r) => ({ id: r.id, key: r.image_key ?? '', trigger_time: Number(r.trigger_time), isSuccess: true })),
      pertinents: rows.filter((r) => r.kind === 'pertinent').map((r) => ({ id: r.id, time: Number(r.trigger_time) })),
      bytes: rows.filter((r) => r.kind === 'byte').map((r) => ({ id: r.id, time: Number(r.trigger_time) })),
      offlineImages: rows.filter((r) => isCapturedOffline(r.detail)).length,
      checks: [...checks].map(([step, result]) => ({ step, result })),
      capture_interval: bundle.settings.capture_interval,
      phone_seen_at: phoneSeen,
    };
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
}
