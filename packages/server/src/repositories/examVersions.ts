import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ExamSectionTable, ExamVersionTable, QuestionTable } from '../db/schema.js';
import type { QuestionRow, SectionRow } from './exams.js';

/** A version row. */
export type VersionRow = Selectable<ExamVersionTable>;

/** A version with its counts, as the console lists it. */
export interface VersionSummaryRow extends VersionRow {
  /** Questions frozen in it. */
  questions: number;
  /** Attempts started on it (previews excluded). */
  attempts: number;
}

/** Frozen exam versions: the version rows, their sections and their copies of questions. */
export class ExamVersionRepository {
  constructor(private readonly db: Db) {}

  /** A version by id. */
  byId(id: number): Promise<VersionRow | undefined> {
    return this.db.selectFrom('exam_versions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** How many times the version's frozen keys were corrected; null when there is no such version. */
  async keyRevision(id: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('exam_versions')
      .select('key_revision')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.key_revision ?? null;
  }

  /** Sections of a version in order. */
  sectionsOf(versionId: number): Promise<SectionRow[]> {
    return this.db
      .selectFrom('exam_sections')
      .selectAll()
      .where('version_id', '=', versionId)
      .orderBy('order_num')
      .orderBy('id')
      .execute();
  }

  /** Questions of a version in authoring order, keys included (server-side use only). */
  questionsOf(versionId: number): Promise<QuestionRow[]> {
    return this.db
      .selectFrom('questions')
      .selectAll()
      .where('version_id', '=', versionId)
      .orderBy('order_num')
      .orderBy('id')
      .execute();
  }

  /** The stored explanations (JSON) of frozen questions that have one, by question id. */
  async explanationsOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('questions')
      .select(['id', 'explanation'])
      .where('id', 'in', [...ids])
      .where('explanation', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [r.id, r.explanation!]));
  }

  /** The version a question is frozen in, or null when there is no such question. */
  async versionOfQuestion(questionId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('questions')
      .select('version_id')
      .where('id', '=', questionId)
      .executeTakeFirst();
    return row?.version_id ?? null;
  }

  /** The next number of a published (or preview) version of an exam. */
  async nextNumber(examId: number, preview: boolean): Promise<number> {
    const row = await this.db
      .selectFrom('exam_versions')
      .select((eb) => eb.fn.max('number').as('n'))
      .where('exam_id', '=', examId)
      .where('preview', '=', preview ? 1 : 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0) + 1;
  }

  /** Stores a version row; returns it. */
  create(row: Insertable<ExamVersionTable>): Promise<VersionRow> {
    return this.db.insertInto('exam_versions').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Stores a section of a version; returns its id. */
  async createSection(row: Insertable<ExamSectionTable>): Promise<number> {
    const r = await this.db.insertInto('exam_sections').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Stores copies of questions, in chunks (SQLite limits the parameters of one statement). */
  async createQuestions(rows: Insertable<QuestionTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 50) {
      await this.db
        .insertInto('questions')
        .values(rows.slice(i, i + 50))
        .execute();
    }
  }

  /** Published (or preview) versions of an exam with their counts, newest first. */
  async list(examId: number, preview: boolean): Promise<VersionSummaryRow[]> {
    const rows = await this.db
      .selectFrom('exam_versions as v')
      .selectAll('v')
      .select((eb) => [
        eb
          .selectFrom('questions as q')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('q.version_id', '=', 'v.id')
          .as('questions'),
        eb
          .selectFrom('attempts as a')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('a.version_id', '=', 'v.id')
          .where('a.preview', '=', 0)
          .as('attempts'),
      ])
      .where('v.exam_id', '=', examId)
      .where('v.preview', '=', preview ? 1 : 0)
      .orderBy('v.number', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, questions: Number(r.questions ?? 0), attempts: Number(r.attempts ?? 0) }));
  }
}
