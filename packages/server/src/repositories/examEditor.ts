import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ExamTable } from '../db/schema.js';
import { examVisible, type ExamFilter } from './access.js';
import type { ExamRow } from './exams.js';
import type { Span, TimingInvitation } from './exams.js';

/** What the console's exam list filters and sorts by. */
export interface EditorListFilter {
  visible: ExamFilter;
  status?: string | undefined;
  /** Substring of the name. */
  name?: string | undefined;
  sort: 'updated_at' | 'name' | 'start_at' | 'id';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** An exam row with what its list entry shows besides. */
export interface EditorListRow extends ExamRow {
  /** Invitations, previews excluded. */
  invited: number;
  /** Number of the published version, or null. */
  published_number: number | null;
}

/** Escapes LIKE's wildcards so a search for "50%" finds "50%" (with `escape '\'`). */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The exam editor's reads and writes of exams rows, invitations and running attempts. */
export class ExamEditorRepository {
  constructor(private readonly db: Db) {}

  private listQuery(f: EditorListFilter) {
    let q = this.db.selectFrom('exams').where(examVisible(f.visible));
    if (f.status) q = q.where('exams.status', '=', f.status);
    if (f.name)
      q = q.where(sql<boolean>`lower(exams.name) like ${`%${likeEscape(f.name.toLowerCase())}%`} escape '\\'`);
    return q;
  }

  /** One page of the exams a filter allows. */
  async list(f: EditorListFilter): Promise<EditorListRow[]> {
    const rows = await this.listQuery(f)
      .selectAll('exams')
      .select((eb) => [
        eb
          .selectFrom('invitations as i')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('i.exam_id', '=', 'exams.id')
          .where('i.preview', '=', 0)
          .as('invited'),
        eb
          .selectFrom('exam_versions as v')
          .select('v.number')
          .whereRef('v.id', '=', 'exams.published_version_id')
          .as('published_number'),
      ])
      .orderBy(`exams.${f.sort}`, f.order)
      .orderBy('exams.id', f.order)
      .offset(f.offset)
      .limit(f.limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      invited: Number(r.invited ?? 0),
      published_number: r.published_number === null ? null : Number(r.published_number),
    }));
  }

  /** How many exams a filter allows. */
  async count(f: EditorListFilter): Promise<number> {
    const row = await this.listQuery(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** An exam row. */
  byId(id: number): Promise<ExamRow | undefined> {
    return this.db.selectFrom('exams').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Creates an exam; returns it. */
  create(row: Insertable<ExamTable>): Promise<ExamRow> {
    return this.db.insertInto('exams').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Updates an exam only at `revision`, bumping it; false when someone saved in between. */
  async updateAtRevision(id: number, revision: number, set: Updateable<ExamTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('exams')
      .set({ ...set, revision: revision + 1 })
      .where('id', '=', id)
      .where('revision', '=', revision)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Updates an exam row. */
  async update(id: number, set: Updateable<ExamTable>): Promise<void> {
    await this.db.updateTable('exams').set(set).where('id', '=', id).execute();
  }

  /** Replaces the positions recommended after an exam. */
  async replacePositions(
    examId: number,
    rows: { title: string; department: string; city: string; description: string; min_ratio: number }[],
  ): Promise<void> {
    await this.db.deleteFrom('positions').where('exam_id', '=', examId).execute();
    if (rows.length > 0)
      await this.db
        .insertInto('positions')
        .values(rows.map((r) => ({ ...r, exam_id: examId })))
        .execute();
  }

  /**
   * Moves the end of every running attempt of an exam (previews excluded) to what `endOf` answers for its
   * start, its invitation's accommodations and its slot; returns how many moved.
   */
  async moveRunningEnds(
    examId: number,
    endOf: (startedAt: number, inv: TimingInvitation, slot: Span | null) => number,
    onlyInvitations?: readonly number[],
  ): Promise<number> {
    let q = this.db
      .selectFrom('attempts as a')
      .innerJoin('invitations as i', 'i.id', 'a.invitation_id')
      .leftJoin('exam_slots as s', 's.id', 'i.slot_id')
      .select([
        'a.id',
        'a.started_at',
        'a.end_at',
        'i.extra_mode',
        'i.extra_minutes',
        'i.extra_percent',
        'i.window_start',
        'i.window_end',
        's.start_at as slot_start',
        's.end_at as slot_end',
      ])
      .where('a.exam_id', '=', examId)
      .where('a.phase', '=', 2)
      .where('a.preview', '=', 0);
    if (onlyInvitations) {
      if (onlyInvitations.length === 0) return 0;
      q = q.where('a.invitation_id', 'in', [...onlyInvitations]);
    }
    const running = await q.execute();
    let moved = 0;
    for (const a of running) {
      const slot =
        a.slot_start !== null && a.slot_end !== null
          ? { start_at: Number(a.slot_start), end_at: Number(a.slot_end) }
          : null;
      const end = endOf(Number(a.started_at ?? 0), a, slot);
      if (end === Number(a.end_at)) continue;
      // Only while it still runs: an attempt finished meanwhile keeps its end.
      const r = await this.db
        .updateTable('attempts')
        .set({ end_at: end })
        .where('id', '=', a.id)
        .where('phase', '=', 2)
        .executeTakeFirst();
      moved += Number(r.numUpdatedRows);
    }
    return moved;
  }

  /** Ids of the running attempts of an exam (previews excluded). */
  async runningAttemptIds(examId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('attempts')
      .select('id')
      .where('exam_id', '=', examId)
      .where('phase', '=', 2)
      .where('preview', '=', 0)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Sets the extra minutes of invitations of an exam; answers the ids that belong to it. */
  async setExtraMinutes(examId: number, items: readonly { anid: number; minutes: number }[]): Promise<number[]> {
    const done: number[] = [];
    for (const item of items) {
      const r = await this.db
        .updateTable('invitations')
        .set({ extra_minutes: item.minutes, extra_mode: 'minutes', extra_percent: 0 })
        .where('id', '=', item.anid)
        .where('exam_id', '=', examId)
        .where('preview', '=', 0)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) done.push(item.anid);
    }
    return done;
  }
}
