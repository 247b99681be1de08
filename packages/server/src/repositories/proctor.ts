import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { GridFilter, GridSort } from '@examhall/contract';
import type { Db } from '../db/database.js';
import type { AttemptTable, Database, RiskRecordTable, WarningTable } from '../db/schema.js';
import { examVisible, type ExamFilter } from './access.js';

/** A risk-chain record with its decision. */
export type ChainRecordRow = Selectable<RiskRecordTable>;
/** A warning row. */
export type WarningRow = Selectable<WarningTable>;
/** What a proctor's decision on a flag stores: the decision and its two notes. */
export type FlagDecisionRow = Pick<ChainRecordRow, 'decision' | 'decision_note' | 'candidate_note'>;

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

/** What one page of the grid asks for, with the clock and windows that say who is offline or lost the phone. */
export interface GridPageQuery {
  examId: number;
  filter: GridFilter;
  sort: GridSort;
  page: number;
  pageSize: number;
  /** Seen before this (epoch ms), or never: offline. */
  offlineBefore: number;
  /** The phone last sent a picture before this (epoch ms): lost. */
  phoneLostBefore: number;
}

/** One page of the grid: its rows, how many match the filter, and how many each filter matches. */
export interface GridPageRows {
  rows: TileRow[];
  total: number;
  counts: Record<GridFilter, number>;
}

/** An open flag with its attempt's candidate, for the grid's feed. */
export type PendingFlagRow = ChainRecordRow & { name: string | null; phone: string };

/** The submit phase: a submitted attempt is neither offline nor without its phone in any way that matters. */
const SUBMITTED = 3;

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
    const rows = await this.attemptsWithCandidates()
      .where((eb) =>
        eb.and([
          'examId' in filter ? eb('a.exam_id', '=', filter.examId) : eb('a.id', '=', filter.attemptId),
          eb('a.preview', '=', 0),
        ]),
      )
      .orderBy('a.id')
      .execute();
    return this.withCounts(rows);
  }

  /**
   * One page of an exam's grid, filtered and ordered in SQL, so an exam of thousands of candidates sends the
   * browser only the tiles it shows.
   */
  async gridPage(q: GridPageQuery): Promise<GridPageRows> {
    const flags = this.db
      .selectFrom('risk_records')
      .select((eb) => [
        'attempt_id',
        eb.fn.countAll<number>().as('risk_count'),
        eb.fn.sum<number>(eb.case().when('decision', 'is', null).then(1).else(0).end()).as('open_flags'),
      ])
      .where('kind', '=', 'risk')
      .groupBy('attempt_id');
    const base = this.db
      .selectFrom('attempts as a')
      .innerJoin('candidates as c', 'c.id', 'a.candidate_id')
      .leftJoin(flags.as('k'), 'k.attempt_id', 'a.id')
      .where('a.exam_id', '=', q.examId)
      .where('a.preview', '=', 0);
    type Eb = ExpressionBuilder<
      Database & { a: AttemptTable; k: { attempt_id: number; risk_count: number | null; open_flags: number | null } },
      'a' | 'k'
    >;
    const matches = (eb: Eb, f: GridFilter): Expression<SqlBool> => {
      switch (f) {
        case 'all':
          return sql<SqlBool>`1 = 1`;
        case 'risk':
          return eb('k.risk_count', '>', 0);
        case 'flags':
          return eb('k.open_flags', '>', 0);
        case 'offline':
          return eb.and([
            eb('a.phase', '!=', SUBMITTED),
            eb.or([eb('a.last_seen_at', 'is', null), eb('a.last_seen_at', '<=', q.offlineBefore)]),
          ]);
        case 'phone_lost':
          return eb.and([
            eb('a.phase', '!=', SUBMITTED),
            eb('a.phone_seen_at', 'is not', null),
            eb('a.phone_seen_at', '<', q.phoneLostBefore),
          ]);
      }
    };
    const countOf = (eb: Eb, f: GridFilter) => eb.fn.sum<number>(eb.case().when(matches(eb, f)).then(1).else(0).end());
    const tally = await base
      .select((eb) => [
        eb.fn.countAll<number>().as('all'),
        countOf(eb, 'risk').as('risk'),
        countOf(eb, 'flags').as('flags'),
        countOf(eb, 'offline').as('offline'),
        countOf(eb, 'phone_lost').as('phone_lost'),
      ])
      .executeTakeFirstOrThrow();
    const counts: Record<GridFilter, number> = {
      all: Number(tally.all),
      risk: Number(tally.risk ?? 0),
      flags: Number(tally.flags ?? 0),
      offline: Number(tally.offline ?? 0),
      phone_lost: Number(tally.phone_lost ?? 0),
    };
    let page = base
      .select(['a.id'])
      .where((eb) => matches(eb, q.filter))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    if (q.sort === 'risk') page = page.orderBy(sql`coalesce(k.risk_count, 0)`, 'desc');
    if (q.sort === 'flags') page = page.orderBy(sql`coalesce(k.open_flags, 0)`, 'desc');
    if (q.sort === 'name') page = page.orderBy(sql`coalesce(c.name, '')`);
    const ids = (await page.orderBy('a.id').execute()).map((r) => r.id);
    if (ids.length === 0) return { rows: [], total: counts[q.filter], counts };
    const rows = await this.attemptsWithCandidates().where('a.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.attempt_id, r]));
    const ordered = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
    return { rows: await this.withCounts(ordered), total: counts[q.filter], counts };
  }

  /** Open flags of an exam's attempts, newest first, with their candidates. */
  pendingFlags(examId: number, limit: number): Promise<PendingFlagRow[]> {
    return this.db
      .selectFrom('risk_records as r')
      .innerJoin('attempts as a', 'a.id', 'r.attempt_id')
      .innerJoin('candidates as c', 'c.id', 'a.candidate_id')
      .selectAll('r')
      .select(['c.name', 'c.phone'])
      .where('a.exam_id', '=', examId)
      .where('a.preview', '=', 0)
      .where('r.kind', '=', 'risk')
      .where('r.decision', 'is', null)
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute();
  }

  private attemptsWithCandidates() {
    return this.db
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
      ]);
  }

  /** Adds the risk counts and the latest camera picture to attempts' rows. */
  private async withCounts<R extends { attempt_id: number }>(
    rows: R[],
  ): Promise<(R & Pick<TileRow, 'risk_count' | 'open_flags' | 'latest_picture_key'>)[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.attempt_id);
    const counts = await this.db
      .selectFrom('risk_records as r')
      .select((eb) => [
        'r.attempt_id',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(eb.case().when('r.decision', 'is', null).then(1).else(0).end()).as('open'),
      ])
      .where('r.kind', '=', 'risk')
      .where('r.attempt_id', 'in', ids)
      .groupBy('r.attempt_id')
      .execute();
    const latest = await this.db
      .selectFrom('risk_records as r')
      .select((eb) => ['r.attempt_id', eb.fn.max('r.id').as('id')])
      .where('r.kind', 'in', CAMERA_KINDS)
      .where('r.image_key', 'is not', null)
      .where('r.attempt_id', 'in', ids)
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
  async decide(id: number, decision: FlagDecisionRow, staffId: number, now: number): Promise<void> {
    await this.db
      .updateTable('risk_records')
      .set({ ...decision, decided_by: staffId, decided_at: now })
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
