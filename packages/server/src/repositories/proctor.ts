import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AttemptTable, Database, RiskRecordTable, WarningTable } from '../db/schema.js';
import { examVisible, type ExamFilter } from './access.js';

/** A risk-chain record with its decision. */
export type ChainRecordRow = Selectable<RiskRecordTable>;
/** A warning row. */
export type WarningRow = Selectable<WarningTable>;

/** Which attempts a console query covers: an exam's, or one. */
export type AttemptFilter = { examId: number } | { attemptId: number };

/** What a tile is built from: the attempt, its candidate and its counts. */
export interface TileRow {
  attempt_id: number;
  exam_id: number;
  phase: number;
  end_at: number | null;
  last_seen_at: number | null;
  phone_seen_at: number | null;
  first_picture_key: string | null;
  finish_reason: string | null;
  finish_note: string;
  name: string | null;
  area_code: string;
  phone: string;
  risk_count: number;
  open_flags: number;
  /** Key of the latest camera picture in the chain, or null. */
  latest_picture_key: string | null;
}

/** An exam with its console counts. */
export interface ExamOverviewRow {
  id: number;
  name: string;
  mode: number;
  start_at: number;
  end_at: number;
  /** 'draft', 'published' or 'archived'. */
  status: string;
  attempts: number;
  in_progress: number;
  open_flags: number;
}

/** Kinds of chain records whose picture shows the candidate's face. */
const CAMERA_KINDS = ['frame', 'first_picture'];

/** The proctor console's reads and writes: tiles, timelines, warnings, decisions, presence. */
export class ProctorRepository {
  constructor(private readonly db: Db) {}

  /** The exams a filter allows with attempts started, in progress and open flags, newest first. */
  async examsOverview(filter: ExamFilter): Promise<ExamOverviewRow[]> {
    const exams = await this.db
      .selectFrom('exams')
      .select(['id', 'name', 'mode', 'start_at', 'end_at', 'status'])
      .where(examVisible(filter))
      .orderBy('start_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const attempts = await this.db
      .selectFrom('attempts')
      .select((eb) => [
        'exam_id',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(eb.case().when('phase', '=', 2).then(1).else(0).end()).as('open'),
      ])
      .where('preview', '=', 0)
      .groupBy('exam_id')
      .execute();
    const flags = await this.db
      .selectFrom('risk_records as r')
      .innerJoin('attempts as a', 'a.id', 'r.attempt_id')
      .select((eb) => ['a.exam_id', eb.fn.countAll<number>().as('n')])
      .where('r.kind', '=', 'risk')
      .where('r.decision', 'is', null)
      .where('a.preview', '=', 0)
      .groupBy('a.exam_id')
      .execute();
    const byExam = new Map(attempts.map((a) => [a.exam_id, a]));
    const flagsByExam = new Map(flags.map((f) => [f.exam_id, Number(f.n)]));
    return exams.map((e) => ({
      ...e,
      attempts: Number(byExam.get(e.id)?.n ?? 0),
      in_progress: Number(byExam.get(e.id)?.open ?? 0),
      open_flags: flagsByExam.get(e.id) ?? 0,
    }));
  }

  /** The tiles' rows of an exam's attempts (in attempt order) or of one attempt; previews count nowhere. */
  async tileRows(filter: AttemptFilter): Promise<TileRow[]> {
    const scope = (eb: ExpressionBuilder<Database & { a: AttemptTable }, 'a'>) =>
      eb.and([
        'examId' in filter ? eb('a.exam_id', '=', filter.examId) : eb('a.id', '=', filter.attemptId),
        eb('a.preview', '=', 0),
      ]);
    const rows = await this.db
      .selectFrom('attempts as a')
      .innerJoin('candidates as c', 'c.id', 'a.candidate_id')
      .select([
        'a.id as attempt_id',
        'a.exam_id',
        'a.phase',
        'a.end_at',
        'a.last_seen_at',
        'a.phone_seen_at',
        'a.first_picture_key',
        'a.finish_reason',
        'a.finish_note',
        'c.name',
        'c.area_code',
        'c.phone',
      ])
      .where(scope)
      .orderBy('a.id')
      .execute();
    if (rows.length === 0) return [];
    const counts = await this.db
      .selectFrom('risk_records as r')
      .innerJoin('attempts as a', 'a.id', 'r.attempt_id')
      .select((eb) => [
        'r.attempt_id',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(eb.case().when('r.decision', 'is', null).then(1).else(0).end()).as('open'),
      ])
      .where('r.kind', '=', 'risk')
      .where(scope)
      .groupBy('r.attempt_id')
      .execute();
    const latest = await this.db
      .selectFrom('risk_records as r')
      .innerJoin('attempts as a', 'a.id', 'r.attempt_id')
      .select((eb) => ['r.attempt_id', eb.fn.max('r.id').as('id')])
      .where('r.kind', 'in', CAMERA_KINDS)
      .where('r.image_key', 'is not', null)
      .where(scope)
      .groupBy('r.attempt_id')
      .execute();
    const latestIds = latest.map((l) => Number(l.id));
    const keys = latestIds.length
      ? await this.db
          .selectFrom('risk_records')
          .select(['attempt_id', 'image_key'])
          .where('id', 'in', latestIds)
          .execute()
      : [];
    const countBy = new Map(counts.map((c) => [c.attempt_id, c]));
    const keyBy = new Map(keys.map((k) => [k.attempt_id, k.image_key]));
    return rows.map((r) => ({
      ...r,
      risk_count: Number(countBy.get(r.attempt_id)?.n ?? 0),
      open_flags: Number(countBy.get(r.attempt_id)?.open ?? 0),
      latest_picture_key: keyBy.get(r.attempt_id) ?? null,
    }));
  }

  /** The exam an attempt belongs to; undefined for a preview attempt, which no proctor watches. */
  async examOf(attemptId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('attempts')
      .select('exam_id')
      .where('id', '=', attemptId)
      .where('preview', '=', 0)
      .executeTakeFirst();
    return row?.exam_id;
  }

  /** Key of the ID photo of an attempt's invitation, or null. */
  async idPhotoKeyOf(attemptId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('attempts as a')
      .innerJoin('invitations as i', 'i.id', 'a.invitation_id')
      .select('i.id_photo_key')
      .where('a.id', '=', attemptId)
      .executeTakeFirst();
    return row?.id_photo_key ?? null;
  }

  /** One chain record. */
  record(id: number): Promise<ChainRecordRow | undefined> {
    return this.db.selectFrom('risk_records').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every chain record of an attempt, in chain order. */
  records(attemptId: number): Promise<ChainRecordRow[]> {
    return this.db.selectFrom('risk_records').selectAll().where('attempt_id', '=', attemptId).orderBy('id').execute();
  }

  /** Stores a decision on a record (a later decision replaces an earlier one; the audit log keeps both). */
  async decide(id: number, decision: string, note: string, staffId: number, now: number): Promise<void> {
    await this.db
      .updateTable('risk_records')
      .set({ decision, decision_note: note, decided_by: staffId, decided_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Stores a warning; returns it. */
  addWarning(attemptId: number, staffId: number, text: string, now: number): Promise<WarningRow> {
    return this.db
      .insertInto('warnings')
      .values({ attempt_id: attemptId, staff_id: staffId, text, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** One warning. */
  warning(id: number): Promise<WarningRow | undefined> {
    return this.db.selectFrom('warnings').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Records that a warning was read, unless it already was (the first read wins); true when this one counted. */
  async markWarningRead(id: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('warnings')
      .set({ read_at: now })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** An attempt's warnings, oldest first. */
  warnings(attemptId: number): Promise<WarningRow[]> {
    return this.db.selectFrom('warnings').selectAll().where('attempt_id', '=', attemptId).orderBy('id').execute();
  }

  /** Records that the candidate's page is connected now. */
  async touch(attemptId: number, now: number): Promise<void> {
    await this.db.updateTable('attempts').set({ last_seen_at: now }).where('id', '=', attemptId).execute();
  }

  /** Keeps the proctor's words on an attempt they ended. */
  async setFinishNote(attemptId: number, note: string): Promise<void> {
    await this.db.updateTable('attempts').set({ finish_note: note }).where('id', '=', attemptId).execute();
  }
}
