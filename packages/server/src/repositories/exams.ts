import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ExamSectionTable, ExamTable, InvitationTable, PositionTable, QuestionTable } from '../db/schema.js';

/** An exam row. */
export type ExamRow = Selectable<ExamTable>;

/** An exam together with the candidate's invitation to it. */
export interface InvitedExam {
  exam: ExamRow;
  inv: InvitationRow;
}

/** Exams, their sections and questions, and invitations. */
export class ExamRepository {
  constructor(private readonly db: Db) {}

  /** How many exams exist. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('exams')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private invitedQuery(areaCode: string, phone: string) {
    return (
      this.db
        .selectFrom('invitations as i')
        .innerJoin('exams as e', 'e.id', 'i.exam_id')
        .where('i.area_code', '=', areaCode)
        .where('i.phone', '=', phone)
        .where('i.revoked_at', 'is', null)
        // An exam shows once it is published; a preview invitation opens its preview version at any time.
        .where((eb) => eb.or([eb('e.published_version_id', 'is not', null), eb('i.preview', '=', 1)]))
    );
  }

  /** The exams a phone is invited to, by start time, one page. */
  async listInvited(areaCode: string, phone: string, offset: number, limit: number): Promise<InvitedExam[]> {
    const rows = await this.invitedQuery(areaCode, phone)
      .select('i.id as anid')
      .orderBy('e.start_at')
      .orderBy('e.id')
      .offset(offset)
      .limit(limit)
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.anid);
    const [invitations, exams] = await Promise.all([
      this.db.selectFrom('invitations').selectAll().where('id', 'in', ids).execute(),
      this.db
        .selectFrom('exams')
        .selectAll()
        .where('id', 'in', this.db.selectFrom('invitations').select('exam_id').where('id', 'in', ids))
        .execute(),
    ]);
    const invById = new Map(invitations.map((i) => [i.id, i]));
    const examById = new Map(exams.map((e) => [e.id, e]));
    return ids.map((id) => {
      const inv = invById.get(id)!;
      return { inv, exam: examById.get(inv.exam_id)! };
    });
  }

  /** How many exams a phone is invited to. */
  async countInvited(areaCode: string, phone: string): Promise<number> {
    const row = await this.invitedQuery(areaCode, phone)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Creates an exam. */
  createExam(row: Insertable<ExamTable>): Promise<ExamRow> {
    return this.db.insertInto('exams').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Creates a section; returns its id. */
  async createSection(row: Insertable<ExamSectionTable>): Promise<number> {
    const r = await this.db.insertInto('exam_sections').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Creates a question; returns its id. */
  async createQuestion(row: Insertable<QuestionTable>): Promise<number> {
    const r = await this.db.insertInto('questions').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Questions of an exam in authoring order, keys included (server-side use only). */
  questionsOf(examId: number): Promise<Selectable<QuestionTable>[]> {
    return this.db
      .selectFrom('questions')
      .selectAll()
      .where('exam_id', '=', examId)
      .orderBy('order_num')
      .orderBy('id')
      .execute();
  }

  /** Sections of an exam in order. */
  sectionsOf(examId: number): Promise<Selectable<ExamSectionTable>[]> {
    return this.db.selectFrom('exam_sections').selectAll().where('exam_id', '=', examId).orderBy('order_num').execute();
  }

  /** Positions to recommend after an exam: its own and the general ones. */
  positionsFor(examId: number) {
    return this.db
      .selectFrom('positions')
      .selectAll()
      .where((eb) => eb.or([eb('exam_id', '=', examId), eb('exam_id', 'is', null)]))
      .orderBy('id')
      .execute();
  }

  /** Adds a position. */
  async addPosition(row: Insertable<PositionTable>): Promise<void> {
    await this.db.insertInto('positions').values(row).execute();
  }

  /** An exam by id. */
  byId(id: number): Promise<ExamRow | undefined> {
    return this.db.selectFrom('exams').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** An invitation by id. */
  invitation(id: number): Promise<Selectable<InvitationTable> | undefined> {
    return this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Records an invitation's ID photo (replacing an earlier one). */
  async setIdPhoto(id: number, key: string, sha256: string): Promise<void> {
    await this.db
      .updateTable('invitations')
      .set({ id_photo_key: key, id_photo_sha256: sha256 })
      .where('id', '=', id)
      .execute();
  }

  /** The invitation of a phone to an exam. */
  invitationFor(examId: number, areaCode: string, phone: string): Promise<Selectable<InvitationTable> | undefined> {
    return this.db
      .selectFrom('invitations')
      .selectAll()
      .where('exam_id', '=', examId)
      .where('area_code', '=', areaCode)
      .where('phone', '=', phone)
      .executeTakeFirst();
  }
}

/** A question row, key included (server-side use only). */
export type QuestionRow = Selectable<QuestionTable>;
/** A section row. */
export type SectionRow = Selectable<ExamSectionTable>;
/** An invitation row. */
export type InvitationRow = Selectable<InvitationTable>;

/** A span of time, epoch ms (an exam's window, a slot, a personal window). */
export interface Span {
  start_at: number;
  end_at: number;
}

/** The invitation fields the timing rules read (services/timing.ts). */
export type TimingInvitation = Pick<
  InvitationRow,
  'extra_mode' | 'extra_minutes' | 'extra_percent' | 'window_start' | 'window_end'
>;
