import { createHash, randomBytes } from 'node:crypto';
import {
  api,
  ExamPhase,
  RISK_EVENTS,
  riskCategoryOf,
  type EvidenceData,
  type EvidenceKind,
  type MonitorStateData,
  type PhoneSessionData,
  type RiskEventId,
  type StsData,
  type VerifyEvidenceData,
  MonitorStepField,
} from '@examhall/contract';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { fail } from '../http/errors.js';
import type { AttemptRow } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { EvidenceRepository } from '../repositories/evidence.js';
import { RiskRepository } from '../repositories/risk.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import type { ObjectStore } from '../storage/objectStore.js';
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
/** Kinds that may still arrive after the end when taken before it. */
const LATE_KINDS: ReadonlySet<EvidenceKind> = new Set(['frame', 'screen', 'phone', 'pertinent', 'byte']);

/** What a check record's detail holds. */
const CheckDetail = z.object({ step: MonitorStepField, result: z.enum(['passed', 'skipped']) });

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Risk recorded for a skipped step, by step id. */
const SKIP_RISK: Record<
  number,
  { risk: RiskEventId; flag: 'is_skip_camera' | 'is_skip_microphone' | 'is_skip_screen' | 'is_skip_phone' }
> = {
  [-5]: { risk: RISK_EVENTS.skipCamera.id, flag: 'is_skip_camera' },
  [-4]: { risk: RISK_EVENTS.skipMicrophone.id, flag: 'is_skip_microphone' },
  [-3]: { risk: RISK_EVENTS.skipScreen.id, flag: 'is_skip_screen' },
  [-2]: { risk: RISK_EVENTS.skipSecondCamera.id, flag: 'is_skip_phone' },
};

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
  private lastPhoneSweep: number;

  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly risk: RiskService,
    private readonly store: ObjectStore,
    private readonly issuer: UploadCredentialIssuer | null,
    private readonly tokens: TokenService,
    private readonly notifier: ProctorNotifier,
    private readonly config: Pick<Config, 'publicUrl'>,
    private readonly clock: () => number,
    private readonly access: AccessService,
  ) {
    this.repo = new EvidenceRepository(db);
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
    const { attempt } = await this.attemptOf(c, examId);
    return this.credentialsFor(attempt);
  }

  private async credentialsFor(attempt: AttemptRow): Promise<StsData> {
    const ended = this.endedAt(attempt);
    // Late uploads need credentials too; after the grace nothing more is accepted, so none are given.
    if (ended !== null && this.clock() > ended + LATE_EVIDENCE_MS) throw fail('exam_finished');
    if (!this.issuer) throw new Error('object storage has no upload credentials configured');
    return this.issuer.issue(attemptPrefix(attempt), STS_TTL_SECONDS, `examhall-attempt-${attempt.id}`);
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
    if (!isUnder(e.key, attemptPrefix(attempt))) throw fail('key_outside_attempt');
    const key = e.key;
    const found = await this.digestOf(key);
    if (!found) throw fail('evidence_missing');
    if (found.sha256 !== e.sha256) throw fail('evidence_digest_mismatch');
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

  /** SHA-256 and size of a stored object, read as a stream; null when it is not there. */
  private async digestOf(key: string): Promise<{ sha256: string; size: number } | null> {
    const found = await this.store.stream(key);
    if (!found) return null;
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of found.stream) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { sha256: hash.digest('hex'), size };
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
      detail: body.risk_id ? `risk record ${body.risk_id}` : '',
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
      detail: `${body.duration_ms} ms`,
    });
    return { id: saved.id, hash: saved.hash };
  }

  /** POST /monitor/check: the outcome of one device check; a skip also records its risk event (15 to 18). */
  async check(
    c: Candidate,
    body: {
      exam_id: number;
      step: -5 | -4 | -3 | -2 | -1;
      result: 'passed' | 'skipped';
      device?: string | undefined;
      client_id: string;
    },
  ): Promise<EvidenceData> {
    const { attempt, bundle } = await this.attemptOf(c, body.exam_id);
    const seen = await new RiskRepository(this.db).byClientId(attempt.id, body.client_id);
    if (seen) return { id: seen.id, hash: seen.hash };
    const now = this.clock();
    this.checkWritable(attempt, 'check', now);
    const skip = SKIP_RISK[body.step];
    if (body.result === 'skipped' && (!skip || bundle.settings[skip.flag] !== 1)) throw fail('step_not_skippable');
    if (body.step === -1 && body.result === 'passed' && !attempt.signature_key)
      throw fail('evidence_missing', 'sign first: no signature capture has been recorded');
    const detail = JSON.stringify({ step: body.step, result: body.result, device: body.device ?? null });
    const saved = await this.risk.append(attempt.id, body.client_id, {
      attempt_id: attempt.id,
      kind: 'check',
      risk: 0,
      category: 0,
      trigger_time: now,
      detail,
      image_key: null,
    });
    if (saved.fresh && body.result === 'skipped' && skip) {
      await this.risk.append(attempt.id, `${body.client_id}:skip`, {
        attempt_id: attempt.id,
        risk: skip.risk,
        category: riskCategoryOf(skip.risk),
        trigger_time: now,
        detail: `step ${body.step} skipped`,
        image_key: null,
      });
    }
    if (saved.fresh && body.step === -4 && body.result === 'passed' && body.device) {
      await this.repo.setMonitorData(attempt.id, { microphone_id: body.device });
    }
    return { id: saved.id, hash: saved.hash };
  }

  /** GET /monitor/state: the monitor data of the candidate's attempt. */
  async state(c: Candidate, examId: number): Promise<MonitorStateData> {
    const { attempt, bundle } = await this.attemptOf(c, examId);
    const rows = await this.repo.byKinds(attempt.id, ['frame', 'screen', 'phone', 'pertinent', 'byte', 'check']);
    const checks = new Map<number, 'passed' | 'skipped'>();
    for (const r of rows.filter((r) => r.kind === 'check')) {
      const d = CheckDetail.safeParse(safeJson(r.detail));
      // A check record edited in the database is the verifier's to report; the state just leaves it out.
      if (d.success) checks.set(d.data.step, d.data.result);
    }
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
      offlineImages: rows.filter((r) => r.detail === OFFLINE_DETAIL && r.kind !== 'check').length,
      checks: [...checks].map(([step, result]) => ({ step: step as -5 | -4 | -3 | -2 | -1, result })),
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
    return this.credentialsFor(attempt);
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
