import {
  ExamPhase,
  type api,
  type EvidenceData,
  type ParsedBody,
  type PhoneSessionData,
  type StsData,
} from '@examhall/contract';
import QRCode from 'qrcode';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { fail } from '../../errors.js';
import type { AttemptRow } from '../../repositories/attempts.js';
import type { Candidate } from '../../repositories/candidates.js';
import { EvidenceRepository } from '../../repositories/evidence.js';
import type { ProctorNotifier } from '../../proctoring/notifier.js';
import type { AttemptService } from '../attempts.js';
import type { TokenService } from '../tokens.js';
import type { EvidenceIntakeService } from './intake.js';
import { PHONE_FRESH_MS, phoneStatus } from './rules.js';

/** Who the phone page is: the attempt its link was made for, and the candidate. */
export interface PhoneCaller {
  candidate: Candidate;
  attempt: AttemptRow;
}

/** How long a phone link outlives the exam's length: the device checks before it. */
const PHONE_LINK_SLACK_MS = 30 * 60_000;

/**
 * The phone as a second camera: the link (and its QR code) the exam page shows, the phone page's session,
 * credentials and pictures, and the phone's presence, announced when it connects or goes quiet.
 */
export class PhonePageService {
  private readonly repo: EvidenceRepository;
  private lastSweep: number;

  constructor(
    db: Db,
    private readonly attempts: AttemptService,
    private readonly intake: EvidenceIntakeService,
    private readonly tokens: TokenService,
    private readonly notifier: ProctorNotifier,
    private readonly config: Pick<Config, 'publicUrl'>,
    private readonly clock: () => number,
  ) {
    this.repo = new EvidenceRepository(db);
    this.lastSweep = clock();
  }

  /** A link that opens the phone page for the candidate's attempt; its token is short-lived and stored hashed. */
  async link(c: Candidate, examId: number, anid: number): Promise<{ url: string; expires_at: number }> {
    await this.attempts.invitation(c, examId, anid);
    await this.attempts.head(examId);
    const attempt = await this.attempts.started(c, examId);
    if (attempt.phase === ExamPhase.submit) throw fail('exam_finished');
    const bundle = await this.attempts.bundleOf(attempt);
    // Long enough for the device checks and the whole exam, and no longer.
    const ttl = bundle.exam.time_minutes * 60_000 + PHONE_LINK_SLACK_MS;
    const { token, expiresAt } = await this.tokens.issue('phone', attempt.id, ttl);
    return { url: `${this.config.publicUrl.replace(/\/+$/, '')}/phone?auth=${token}`, expires_at: expiresAt };
  }

  /** The phone link as a QR code (SVG data URL). */
  async qr(c: Candidate, examId: number, anid: number): Promise<{ image: string; url: string; expires_at: number }> {
    const link = await this.link(c, examId, anid);
    const svg = await QRCode.toString(link.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    return { ...link, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** The attempt and candidate of a phone token, or phone_link_invalid. */
  async resolve(token: string | undefined): Promise<PhoneCaller> {
    const attemptId = await this.tokens.resolve('phone', token);
    if (attemptId === null) throw fail('phone_link_invalid');
    const attempt = await this.attempts.byId(attemptId);
    const candidate = attempt ? await this.repo.candidateOf(attemptId) : undefined;
    if (!attempt || !candidate) throw fail('phone_link_invalid');
    return { attempt, candidate };
  }

  /** The link's attempt as it is now; phone_link_invalid once the candidate has a newer attempt. */
  private async currentOf(p: PhoneCaller): Promise<AttemptRow> {
    const attempt = (await this.attempts.current(p.candidate, p.attempt.exam_id)) ?? p.attempt;
    if (attempt.id !== p.attempt.id) throw fail('phone_link_invalid');
    return attempt;
  }

  /** Records a report from the phone; announces the attempt when its phone status flips to connected. */
  private async seen(attempt: AttemptRow): Promise<void> {
    if (attempt.phase === ExamPhase.submit) return;
    const before = await this.repo.touchPhone(attempt.id, this.clock());
    if (phoneStatus(before, this.clock()) === 0) this.notifier.announce({ type: 'attempt', attemptId: attempt.id });
  }

  /** GET /phone/session (also the phone's heartbeat). */
  async session(p: PhoneCaller): Promise<PhoneSessionData> {
    const attempt = await this.currentOf(p);
    const bundle = await this.attempts.bundleOf(attempt);
    await this.seen(attempt);
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
  async sts(p: PhoneCaller): Promise<StsData> {
    const attempt = (await this.attempts.byId(p.attempt.id)) ?? p.attempt;
    return this.intake.credentialsFor(attempt, await this.attempts.bundleOf(attempt));
  }

  /** POST /phone/picture. */
  async picture(p: PhoneCaller, body: ParsedBody<typeof api.phonePicture>): Promise<EvidenceData> {
    const attempt = await this.currentOf(p);
    const saved = await this.intake.recordUploaded(attempt, {
      kind: 'phone',
      key: body.key,
      sha256: body.sha256,
      triggerTime: body.trigger_time,
      clientId: body.client_id,
    });
    await this.seen(attempt);
    if (saved.fresh) this.notifier.announce({ type: 'attempt', attemptId: attempt.id });
    return { id: saved.id, hash: saved.hash };
  }

  /** Announces attempts whose phone went quiet since the last sweep (their mobileDeviceStatus fell to 0). */
  async sweep(): Promise<number> {
    const now = this.clock();
    const quiet = await this.repo.phonesLastSeenBetween(this.lastSweep - PHONE_FRESH_MS, now - PHONE_FRESH_MS);
    this.lastSweep = now;
    for (const attemptId of quiet) this.notifier.announce({ type: 'attempt', attemptId });
    return quiet.length;
  }
}
