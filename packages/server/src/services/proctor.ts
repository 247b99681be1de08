import {
  ExamPhase,
  api,
  requiredSteps,
  type CandidateIntegrityRecord,
  type FlagDecision,
  type IntegrityLogData,
  type IntegrityRecord,
  type ProctorAttemptData,
  type ProctorExamsData,
  type ProctorGridData,
  type ProctorTile,
  type WarningView,
  type AttemptView,
  type ProctorGridQuery,
} from '@examhall/contract';
import type { z } from 'zod';
import type { ServiceLog } from '../log.js';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Candidate } from '../repositories/candidates.js';
import type { AttemptRow } from '../repositories/attempts.js';
import {
  ProctorRepository,
  type AttemptFilter,
  type ChainRecordRow,
  type FlagDecisionRow,
  type TileRow,
  type WarningRow,
} from '../repositories/proctor.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { UPLOAD_MAX_BYTES } from '../storage/budget.js';
import type { ObjectStore } from '../storage/objectStore.js';
import { authorize, type AccessService, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { PHONE_FRESH_MS, phoneStatus } from './evidence/rules.js';
import type { AttemptService } from './attempts.js';

/** A candidate counts as online while their page was connected this recently. */
export const ONLINE_WINDOW_MS = 30_000;
/** How long picture links on the console and in the integrity log work. */
const PICTURE_URL_TTL_S = 15 * 60;

/** How many waiting flags the grid's feed starts with. */
const PENDING_FEED_SIZE = 50;

/** The grid's query once parsed: every field with its default. */
type ProctorGridQueryParsed = z.output<typeof ProctorGridQuery>;

/** The name a proctor sees: the candidate's, or their masked phone when they gave none. */
function displayName(name: string | null, phone: string): string {
  return name?.trim() || maskPhone(phone);
}

/** '138****8000': enough for a proctor to tell candidates apart, not enough to call them. */
export function maskPhone(phone: string): string {
  if (phone.length <= 4) return '*'.repeat(phone.length);
  const keep = Math.min(3, phone.length - 4);
  return `${phone.slice(0, keep)}${'*'.repeat(phone.length - keep - 4)}${phone.slice(-4)}`;
}

/** A record as its candidate may read it: everything but the proctor's internal note. */
export function candidateView(record: IntegrityRecord): CandidateIntegrityRecord {
  const { decision_note: internal, ...shown } = record;
  void internal;
  return shown;
}

/** Why an attempt ended as the candidate and the proctor read it: the reason, with the proctor's words. */
export function finishReasonText(a: { finish_reason: string | null; finish_note: string }): string | null {
  if (!a.finish_reason) return null;
  return a.finish_reason === 'proctor' && a.finish_note ? `proctor: ${a.finish_note}` : a.finish_reason;
}

/** The proctor console and the candidate's view of it: tiles, timelines, warnings, ending, decisions. */
export class ProctorService {
  private readonly repo: ProctorRepository;

  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly store: ObjectStore,
    private readonly notifier: ProctorNotifier,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly clock: () => number,
    private readonly log: ServiceLog,
  ) {
    this.repo = new ProctorRepository(db);
  }

  /** A short-lived link to a stored picture; a store that can't sign leaves the picture out, not the tile. */
  private async url(key: string | null): Promise<string | null> {
    if (!key) return null;
    try {
      return await this.store.presignGet(key, PICTURE_URL_TTL_S);
    } catch (err) {
      this.log.warn({ err, key }, 'no link for a stored picture');
      return null;
    }
  }

  /** 1 while the phone page is sending pictures. */
  mobileStatus(phoneSeenAt: number | null): 0 | 1 {
    // The same rule as the candidate's monitor state, so the console and the candidate's page agree.
    return phoneStatus(phoneSeenAt, this.clock());
  }

  /** The one place a tile is built: the grid, the attempt's timeline and the live stream all use it. */
  private async tile(r: TileRow): Promise<ProctorTile> {
    const masked = maskPhone(r.phone);
    return {
      attempt_id: r.attempt_id,
      name: displayName(r.name, r.phone),
      phone: masked,
      phase: r.phase as ProctorTile['phase'],
      end_time: r.end_at,
      risk_count: r.risk_count,
      open_flags: r.open_flags,
      online: r.last_seen_at !== null && this.clock() - r.last_seen_at < ONLINE_WINDOW_MS,
      last_seen: r.last_seen_at,
      picture_url: await this.url(r.latest_picture_key ?? r.first_picture_key),
      mobileDeviceStatus: this.mobileStatus(r.phone_seen_at),
    };
  }

  /** Tiles of an exam's attempts or of one attempt. */
  async tiles(filter: AttemptFilter): Promise<ProctorTile[]> {
    return Promise.all((await this.repo.tileRows(filter)).map((r) => this.tile(r)));
  }

  /** The one place an integrity record is built: timelines, the candidate's log and the live stream use it. */
  async record(r: ChainRecordRow): Promise<IntegrityRecord> {
    const isRisk = r.kind === 'risk';
    return {
      id: r.id,
      kind: r.kind as IntegrityRecord['kind'],
      risk: r.risk,
      category: r.category,
      trigger_time: r.trigger_time,
      detail: r.detail,
      image_url: await this.url(r.image_key),
      decision: isRisk ? ((r.decision as FlagDecision | null) ?? null) : null,
      decision_note: isRisk ? r.decision_note : '',
      candidate_note: isRisk ? r.candidate_note : '',
      hash: r.hash,
    };
  }

  /** A record by id with the exam of its attempt, for the live stream; undefined when gone. */
  async recordById(id: number): Promise<{ record: IntegrityRecord; attemptId: number } | undefined> {
    const row = await this.repo.record(id);
    return row ? { record: await this.record(row), attemptId: row.attempt_id } : undefined;
  }

  private warningView(w: WarningRow): WarningView {
    return { id: w.id, text: w.text, time: w.created_at, read_at: w.read_at };
  }

  /** A warning by id, for the candidate's live stream. */
  async warning(id: number): Promise<{ view: WarningView; attemptId: number } | undefined> {
    const w = await this.repo.warning(id);
    return w ? { view: this.warningView(w), attemptId: w.attempt_id } : undefined;
  }

  /** The exam an attempt belongs to. */
  examOf(attemptId: number): Promise<number | undefined> {
    return this.repo.examOf(attemptId);
  }

  /** Exams to watch: those the staff member may see. */
  async exams(staff: StaffActor): Promise<ProctorExamsData> {
    authorize(staff, api.proctorExams);
    const list = await this.repo.examsOverview(this.access.examFilter(staff));
    return { list: list.map((e) => ({ ...e, mode: e.mode as ProctorExamsData['list'][number]['mode'] })) };
  }

  /** One page of an exam's live grid, filtered and ordered, with the flags still waiting for a decision. */
  async grid(staff: StaffActor, q: ProctorGridQueryParsed): Promise<ProctorGridData> {
    await this.access.requireFor(staff, api.proctorGrid, q.exam_id);
    const bundle = await this.attempts.bundle(q.exam_id);
    const now = this.clock();
    const page = await this.repo.gridPage({
      examId: q.exam_id,
      filter: q.filter,
      sort: q.sort,
      page: q.page,
      pageSize: q.page_size,
      // The tile's own rules (online, mobileStatus), turned into bounds the database compares with.
      offlineBefore: now - ONLINE_WINDOW_MS,
      phoneLostBefore: now - PHONE_FRESH_MS,
    });
    const pending = await this.repo.pendingFlags(q.exam_id, PENDING_FEED_SIZE);
    return {
      exam_name: bundle.exam.name,
      phone_check: requiredSteps(bundle.settings).some((step) => step.key === 'mobileDevice'),
      tiles: await Promise.all(page.rows.map((r) => this.tile(r))),
      total: page.total,
      counts: page.counts,
      pending: await Promise.all(
        pending.map(async (r) => ({
          attempt_id: r.attempt_id,
          name: displayName(r.name, r.phone),
          record: await this.record(r),
        })),
      ),
      storage_full: await this.storageFull(),
      server_time: now,
    };
  }

  /** True while the store has no room above its disk reserve for the largest object a page uploads. */
  private async storageFull(): Promise<boolean> {
    const left = await this.store.spaceLeft();
    return left !== null && left < UPLOAD_MAX_BYTES;
  }

  /** Checks a staff member may watch an exam's stream; the exam must exist. */
  async openStream(staff: StaffActor, examId: number): Promise<void> {
    await this.access.requireFor(staff, api.proctorStream, examId);
    await this.attempts.bundle(examId);
  }

  /** One attempt's timeline. */
  async attempt(staff: StaffActor, attemptId: number): Promise<ProctorAttemptData> {
    await this.access.requireFor(staff, api.proctorAttempt, attemptId);
    const [row] = await this.repo.tileRows({ attemptId });
    if (!row) throw fail('not_found', 'no such attempt');
    const records = await this.repo.records(attemptId);
    return {
      tile: await this.tile(row),
      exam_id: row.exam_id,
      records: await Promise.all(records.map((r) => this.record(r))),
      warnings: (await this.repo.warnings(attemptId)).map((w) => this.warningView(w)),
      finish_reason: finishReasonText(row),
      id_photo_url: await this.url(await this.repo.idPhotoKeyOf(attemptId)),
    };
  }

  private async openAttempt(attemptId: number): Promise<AttemptRow> {
    const a = await this.attempts.byId(attemptId);
    if (!a) throw fail('not_found', 'no such attempt');
    if (a.phase === ExamPhase.submit) throw fail('exam_finished', 'the attempt has already ended');
    return a;
  }

  /** Sends the candidate a warning; their page hears it at once. */
  async warn(staff: StaffActor, attemptId: number, text: string): Promise<WarningView> {
    await this.access.requireFor(staff, api.proctorWarn, attemptId);
    await this.openAttempt(attemptId);
    const w = await this.db.transaction().execute(async (trx) => {
      const added = await new ProctorRepository(trx).addWarning(attemptId, staff.id, text, this.clock());
      // Filed under the attempt, with the proctor's other actions on it; the warning itself is new.
      await this.audit
        .with(trx)
        .record(staff, 'proctor.warn', { kind: 'attempt', id: attemptId }, null, { warning_id: added.id, text });
      return added;
    });
    this.notifier.announce({ type: 'warning', attemptId, warningId: w.id });
    return this.warningView(w);
  }

  /** Ends an attempt for the proctor's reason; its later writes get exam_finished. */
  async end(staff: StaffActor, attemptId: number, reason: string): Promise<AttemptView> {
    await this.access.requireFor(staff, api.proctorEnd, attemptId);
    const open = await this.openAttempt(attemptId);
    // The note goes first: whoever hears that the attempt ended reads it with the reason.
    await this.repo.setFinishNote(attemptId, reason);
    const ended = await this.attempts.finish(attemptId, 'proctor');
    if (ended.finish_reason !== 'proctor') {
      // It ended another way (time, submit) while the proctor was deciding.
      await this.repo.setFinishNote(attemptId, '');
      throw fail('exam_finished', 'the attempt had already ended');
    }
    await this.audit.record(
      staff,
      'proctor.end',
      { kind: 'attempt', id: attemptId },
      { phase: open.phase, finish_reason: open.finish_reason, finish_note: open.finish_note },
      { phase: ended.phase, finish_reason: ended.finish_reason, finish_note: reason },
    );
    return this.attempts.view(ended, await this.attempts.bundleOf(ended));
  }

  /** Confirms or dismisses a risk flag; the attempt itself is untouched: a flag is never a verdict by itself. */
  async decide(
    staff: StaffActor,
    recordId: number,
    decision: FlagDecisionRow & { decision: FlagDecision },
  ): Promise<IntegrityRecord> {
    await this.access.requireFor(staff, api.proctorDecide, recordId);
    const r = await this.repo.record(recordId);
    if (!r) throw fail('not_found', `no such record ${recordId}`);
    if (r.kind !== 'risk') throw fail('validation_error', 'record_id: only risk events are confirmed or dismissed');
    const now = this.clock();
    await this.db.transaction().execute(async (trx) => {
      await new ProctorRepository(trx).decide(recordId, decision, staff.id, now);
      await this.audit.with(trx).record(
        staff,
        'proctor.decide',
        { kind: 'record', id: recordId },
        {
          attempt_id: r.attempt_id,
          decision: r.decision,
          decision_note: r.decision_note,
          candidate_note: r.candidate_note,
        },
        { attempt_id: r.attempt_id, ...decision },
      );
    });
    // The tile's open-flag count changed.
    this.notifier.announce({ type: 'attempt', attemptId: r.attempt_id });
    return this.record({ ...r, ...decision, decided_by: staff.id, decided_at: now });
  }

  /**
   * POST /monitor/warning-read: the candidate acknowledged a warning of their own attempt at the exam. Only the
   * first read is kept, so a retried or repeated call changes nothing; the console hears of the first.
   */
  async warningRead(c: Candidate, examId: number, warningId: number): Promise<WarningView> {
    await this.attempts.bundle(examId);
    const w = await this.repo.warning(warningId);
    const attempt = w ? await this.attempts.byId(w.attempt_id) : undefined;
    // Someone else's warning is answered like a missing one: its existence is not theirs to learn.
    if (!w || !attempt || attempt.candidate_id !== c.id || attempt.exam_id !== examId) {
      throw fail('warning_not_found');
    }
    if (w.read_at !== null) return this.warningView(w);
    const now = this.clock();
    if (await this.repo.markWarningRead(w.id, now)) {
      this.notifier.announce({ type: 'attempt', attemptId: w.attempt_id });
      return this.warningView({ ...w, read_at: now });
    }
    // Another request read it first.
    const current = await this.repo.warning(w.id);
    return this.warningView(current ?? w);
  }

  /** The candidate's own integrity log, once their attempt is submitted. */
  async integrityLog(c: Candidate, examId: number): Promise<IntegrityLogData> {
    await this.attempts.bundle(examId);
    const attempt = await this.attempts.started(c, examId);
    if (attempt.phase !== ExamPhase.submit) throw fail('exam_not_finished');
    const records = await this.repo.records(attempt.id);
    return {
      // The candidate's view is built without the internal note, so it cannot leave by a forgotten filter.
      records: await Promise.all(records.map(async (r) => candidateView(await this.record(r)))),
      warnings: (await this.repo.warnings(attempt.id)).map((w) => this.warningView(w)),
    };
  }

  /** The candidate's attempt their live stream follows; the stream can't open before the attempt exists. */
  async candidateAttempt(c: Candidate, examId: number): Promise<AttemptRow> {
    await this.attempts.bundle(examId);
    const attempt = await this.attempts.started(c, examId);
    return attempt;
  }

  /** Records that the candidate's page is connected (presence on the console). */
  touch(attemptId: number): Promise<void> {
    return this.repo.touch(attemptId, this.clock());
  }
}
