import { PostgresAdapter, sql, type Insertable, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { ExamGradingTable, GradingMarkTable, QuestionScoreTable } from '../db/schema.js';
import { examVisible, type ExamFilter } from './access.js';
import { containsPattern } from './bank.js';

/** A per-question score row. */
export type QuestionScoreRow = Selectable<QuestionScoreTable>;
/** A new per-question score row. */
export type NewQuestionScore = Insertable<QuestionScoreTable>;
/** A grader's mark with the grader's name. */
export type MarkRow = Selectable<GradingMarkTable> & { grader_name: string };
/** An exam's grading settings row. */
export type ExamGradingRow = Selectable<ExamGradingTable>;

/** Counts of answers graders score. */
export interface Counts {
  total: number;
  graded: number;
  reconcile: number;
}

/** Which answers a grader may take: the exam, the sections they are limited to, one question. */
export interface QueueFilter {
  examId: number;
  graderId: number;
  /** Sections they grade; empty: every section. */
  sections: string[];
  /** Marks an answer needs before it is decided (1, or 2 under double marking). */
  required: number;
  questionId?: number;
}

/** Per-question scores, grading settings, graders' sections and marks: the SQL of grading. */
export class GradingRepository {
  constructor(private readonly db: Db) {}

  /** Replaces an attempt's per-question rows. */
  async replaceScores(attemptId: number, rows: NewQuestionScore[]): Promise<void> {
    await this.db.deleteFrom('question_scores').where('attempt_id', '=', attemptId).execute();
    if (rows.length > 0) await this.db.insertInto('question_scores').values(rows).execute();
  }

  /**
   * Stores on the attempt what the ranking reads: each graded section's points and worth, the answers waiting for a
   * grader, and the ranking's keys in hundredths of a point, from its per-question rows and final score as they
   * stand; and counts the write (the item analysis reads the count to know its figures are behind). Every write of
   * either ends with it, in the same transaction, so that the ranking reads one row per attempt through an index
   * instead of adding up every question at each read.
   */
  async keepTotals(attemptId: number): Promise<void> {
    await this.totals().where('id', '=', attemptId).execute();
  }

  /** {@link keepTotals} for attempts written in bulk (benchmarks, tests), a thousand a statement. */
  async keepTotalsOf(attemptIds: readonly number[]): Promise<void> {
    for (let i = 0; i < attemptIds.length; i += 1000) {
      await this.totals()
        .where('id', 'in', attemptIds.slice(i, i + 1000))
        .execute();
    }
  }

  /** The update of an attempt's kept totals; the sums are the ones the ranking made at each read before. */
  private totals() {
    const section = (kind: string, value: 'points' | 'max') =>
      sql<number>`coalesce((select sum(${sql.raw(value === 'points' ? 'coalesce(qs.points, 0)' : 'qs.max')})
        from question_scores qs
        inner join questions q on q.id = qs.question_id
        inner join exam_sections s on s.id = q.section_id
        where qs.attempt_id = attempts.id and s.kind = ${kind}), 0)`;
    const hundredths = (points: RawBuilder<number>) => sql<number>`round(${points} * 100)`;
    return this.db.updateTable('attempts').set({
      linetest_points: section('linetest', 'points'),
      linetest_max: section('linetest', 'max'),
      major_points: section('major', 'points'),
      major_max: section('major', 'max'),
      pending_marks: sql<number>`(select count(*) from question_scores qs
        where qs.attempt_id = attempts.id and qs.source = 'manual' and qs.points is null)`,
      rank_total: hundredths(sql<number>`coalesce(attempts.score, 0)`),
      rank_linetest: hundredths(section('linetest', 'points')),
      rank_major: hundredths(section('major', 'points')),
      score_writes: sql<number>`attempts.score_writes + 1`,
    });
  }

  /** An attempt's per-question rows. */
  scoresOf(attemptId: number): Promise<QuestionScoreRow[]> {
    return this.db.selectFrom('question_scores').selectAll().where('attempt_id', '=', attemptId).execute();
  }

  /** One answer's row. */
  score(attemptId: number, questionId: number): Promise<QuestionScoreRow | undefined> {
    return this.db
      .selectFrom('question_scores')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .executeTakeFirst();
  }

  /**
   * One answer's score row, locked until the transaction `db` ends on PostgreSQL, so two graders marking the same
   * answer at once count each other's mark (SQLite's one writer serializes transactions anyway).
   */
  lockScore(attemptId: number, questionId: number): Promise<QuestionScoreRow | undefined> {
    let q = this.db
      .selectFrom('question_scores')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId);
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) q = q.forUpdate();
    return q.executeTakeFirst();
  }

  /** Sets one answer's final points. */
  async setPoints(attemptId: number, questionId: number, points: number | null, at: number): Promise<void> {
    await this.db
      .updateTable('question_scores')
      .set({ points, updated_at: at })
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .execute();
  }

  /** An exam's grading settings row, if it set any. */
  settings(examId: number): Promise<ExamGradingRow | undefined> {
    return this.db.selectFrom('exam_grading').selectAll().where('exam_id', '=', examId).executeTakeFirst();
  }

  /** Stores an exam's grading settings. */
  async saveSettings(row: ExamGradingRow): Promise<void> {
    await this.db
      .insertInto('exam_grading')
      .values(row)
      .onConflict((oc) =>
        oc.column('exam_id').doUpdateSet({
          blind: row.blind,
          double_marking: row.double_marking,
          margin: row.margin,
          updated_at: row.updated_at,
          updated_by: row.updated_by,
        }),
      )
      .execute();
  }

  /** An exam's graders (assigned in exam_staff) with their names and sections. */
  async graders(examId: number): Promise<{ staff_id: number; name: string; sections: string[] }[]> {
    const rows = await this.db
      .selectFrom('exam_staff as x')
      .innerJoin('staff as s', 's.id', 'x.staff_id')
      .select(['x.staff_id', 's.name'])
      .where('x.exam_id', '=', examId)
      .where('x.role', '=', 'grader')
      .orderBy('s.name')
      .orderBy('x.staff_id')
      .execute();
    const sections = await this.db
      .selectFrom('grader_sections')
      .select(['staff_id', 'section'])
      .where('exam_id', '=', examId)
      .orderBy('section')
      .execute();
    return rows.map((r) => ({
      ...r,
      sections: sections.filter((s) => s.staff_id === r.staff_id).map((s) => s.section),
    }));
  }

  /** The sections a grader is limited to on an exam ([]: every section). */
  async sectionsOf(examId: number, staffId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('grader_sections')
      .select('section')
      .where('exam_id', '=', examId)
      .where('staff_id', '=', staffId)
      .execute();
    return rows.map((r) => r.section);
  }

  /** Replaces the sections a grader is limited to. */
  async setSections(examId: number, staffId: number, sections: readonly string[]): Promise<void> {
    await this.db.deleteFrom('grader_sections').where('exam_id', '=', examId).where('staff_id', '=', staffId).execute();
    if (sections.length > 0) {
      await this.db
        .insertInto('grader_sections')
        .values(sections.map((section) => ({ exam_id: examId, staff_id: staffId, section })))
        .execute();
    }
  }

  /** Marks of one answer, oldest first. */
  marks(attemptId: number, questionId: number): Promise<MarkRow[]> {
    return this.db
      .selectFrom('grading_marks as m')
      .innerJoin('staff as s', 's.id', 'm.grader_id')
      .selectAll('m')
      .select('s.name as grader_name')
      .where('m.attempt_id', '=', attemptId)
      .where('m.question_id', '=', questionId)
      .orderBy('m.id')
      .execute();
  }

  /** Stores a mark; answers its id. */
  async addMark(row: Insertable<GradingMarkTable>): Promise<number> {
    const r = await this.db.insertInto('grading_marks').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** The answers graders score of an exam's counted (not preview) attempts. */
  private manual(examId: number) {
    return this.db
      .selectFrom('question_scores as qs')
      .innerJoin('attempts as a', 'a.id', 'qs.attempt_id')
      .where('qs.exam_id', '=', examId)
      .where('qs.source', '=', 'manual')
      .where('a.preview', '=', 0);
  }

  /** The answers a grader may mark now, in the order they take them. */
  private queue(f: QueueFilter) {
    return this.manual(f.examId)
      .innerJoin('questions as q', 'q.id', 'qs.question_id')
      .innerJoin('exam_sections as s', 's.id', 'q.section_id')
      .where('qs.points', 'is', null)
      .$if(f.sections.length > 0, (qb) => qb.where('s.kind', 'in', f.sections))
      .$if(f.questionId !== undefined, (qb) => qb.where('qs.question_id', '=', f.questionId!))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('grading_marks as mine')
              .select('mine.id')
              .whereRef('mine.attempt_id', '=', 'qs.attempt_id')
              .whereRef('mine.question_id', '=', 'qs.question_id')
              .where('mine.grader_id', '=', f.graderId),
          ),
        ),
      )
      .where(
        (eb) =>
          eb
            .selectFrom('grading_marks as m')
            .select((s) => s.fn.countAll().as('n'))
            .whereRef('m.attempt_id', '=', 'qs.attempt_id')
            .whereRef('m.question_id', '=', 'qs.question_id')
            .where('m.reconciling', '=', 0),
        '<',
        f.required,
      );
  }

  /** The grader's next answer, or undefined. */
  next(f: QueueFilter): Promise<{ attempt_id: number; question_id: number } | undefined> {
    return this.queue(f)
      .select(['qs.attempt_id', 'qs.question_id'])
      .orderBy('qs.attempt_id')
      .orderBy('q.order_num')
      .orderBy('qs.question_id')
      .executeTakeFirst();
  }

  /** How many answers the grader may still mark. */
  async left(f: QueueFilter): Promise<number> {
    const r = await this.queue(f)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Counts of an exam's answers, overall and per question (`required` marks decide an answer). */
  async counts(
    examId: number,
    required: number,
  ): Promise<
    { question_id: number; order_num: number; type: number; total: number; graded: number; reconcile: number }[]
  > {
    const rows = await this.manual(examId)
      .innerJoin('questions as q', 'q.id', 'qs.question_id')
      .select((eb) => [
        'qs.question_id',
        'q.order_num',
        'q.type',
        eb.fn.countAll().as('total'),
        eb.fn.count('qs.points').as('graded'),
        eb.fn
          .sum(
            eb
              .case()
              .when(
                eb.and([
                  eb('qs.points', 'is', null),
                  eb(
                    eb
                      .selectFrom('grading_marks as m')
                      .select((s) => s.fn.countAll().as('n'))
                      .whereRef('m.attempt_id', '=', 'qs.attempt_id')
                      .whereRef('m.question_id', '=', 'qs.question_id')
                      .where('m.reconciling', '=', 0),
                    '>=',
                    required,
                  ),
                ]),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as('reconcile'),
      ])
      .groupBy(['qs.question_id', 'q.order_num', 'q.type'])
      .orderBy('q.order_num')
      .orderBy('qs.question_id')
      .execute();
    return rows.map((r) => ({
      question_id: r.question_id,
      order_num: r.order_num,
      type: r.type,
      total: Number(r.total),
      graded: Number(r.graded),
      reconcile: Number(r.reconcile ?? 0),
    }));
  }

  /** True while some counted answer of the exam waits for a grader. */
  async hasPending(examId: number): Promise<boolean> {
    const r = await this.manual(examId).select('qs.attempt_id').where('qs.points', 'is', null).executeTakeFirst();
    return r !== undefined;
  }

  /** Marks per grader of an exam (reconciling ones included). */
  async marksPerGrader(examId: number): Promise<{ staff_id: number; name: string; marks: number }[]> {
    const rows = await this.db
      .selectFrom('grading_marks as m')
      .innerJoin('staff as s', 's.id', 'm.grader_id')
      .select((eb) => ['m.grader_id as staff_id', 's.name', eb.fn.countAll().as('marks')])
      .where('m.exam_id', '=', examId)
      .groupBy(['m.grader_id', 's.name'])
      .orderBy('s.name')
      .execute();
    return rows.map((r) => ({ staff_id: r.staff_id, name: r.name, marks: Number(r.marks) }));
  }

  /** A page of answers waiting for a reconciling mark (at least `required` marks, no final points). */
  async toReconcile(
    examId: number,
    required: number,
    offset: number,
    limit: number,
  ): Promise<{ rows: { attempt_id: number; question_id: number; order_num: number; max: number }[]; total: number }> {
    const base = this.manual(examId)
      .innerJoin('questions as q', 'q.id', 'qs.question_id')
      .where('qs.points', 'is', null)
      .where(
        (eb) =>
          eb
            .selectFrom('grading_marks as m')
            .select((s) => s.fn.countAll().as('n'))
            .whereRef('m.attempt_id', '=', 'qs.attempt_id')
            .whereRef('m.question_id', '=', 'qs.question_id')
            .where('m.reconciling', '=', 0),
        '>=',
        required,
      );
    const rows = await base
      .select(['qs.attempt_id', 'qs.question_id', 'q.order_num', 'qs.max'])
      .orderBy('qs.attempt_id')
      .orderBy('q.order_num')
      .offset(offset)
      .limit(limit)
      .execute();
    const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** A page of the exams the filter shows that have a grader's answer, or graders assigned, by id. */
  async exams(
    filter: ExamFilter,
    keyword: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: { id: number; name: string }[]; total: number }> {
    const base = this.db
      .selectFrom('exams')
      .where(examVisible(filter))
      .where('exams.published_version_id', 'is not', null)
      .$if(Boolean(keyword), (qb) =>
        qb.where(sql<SqlBool>`lower(${sql.ref('exams.name')}) like lower(${containsPattern(keyword!)}) escape '!'`),
      );
    const rows = await base
      .select(['exams.id', 'exams.name'])
      .orderBy('exams.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** Finished, counted attempts of a version, by id (those re-scoring reads). */
  finishedOfVersion(versionId: number, phase: number): Promise<{ id: number; question_ids: string | null }[]> {
    return this.db
      .selectFrom('attempts')
      .select(['id', 'question_ids'])
      .where('version_id', '=', versionId)
      .where('phase', '=', phase)
      .orderBy('id')
      .execute();
  }

  /** The candidate of an attempt as a grader may see them once grading is done. */
  candidateOf(attemptId: number): Promise<{ name: string | null; phone: string; school: string | null } | undefined> {
    return this.db
      .selectFrom('attempts as a')
      .innerJoin('candidates as c', 'c.id', 'a.candidate_id')
      .select(['c.name', 'c.phone', 'c.school'])
      .where('a.id', '=', attemptId)
      .executeTakeFirst();
  }

  /** A frozen question with its version, when the version is a published one (not a preview). */
  publishedQuestion(
    questionId: number,
  ): Promise<
    { id: number; exam_id: number; kind: string; content: string; answer_key: string; version_id: number } | undefined
  > {
    return this.db
      .selectFrom('questions as q')
      .innerJoin('exam_versions as v', 'v.id', 'q.version_id')
      .select(['q.id', 'v.exam_id', 'q.kind', 'q.content', 'q.answer_key', 'v.id as version_id'])
      .where('q.id', '=', questionId)
      .where('v.preview', '=', 0)
      .executeTakeFirst();
  }

  /** Replaces a frozen question's key. */
  async setKey(questionId: number, versionId: number, key: string): Promise<void> {
    await this.db.updateTable('questions').set({ answer_key: key }).where('id', '=', questionId).execute();
    await this.db
      .updateTable('exam_versions')
      .set((eb) => ({ key_revision: eb('key_revision', '+', 1) }))
      .where('id', '=', versionId)
      .execute();
  }

  /** An exam's answers graders score that have at least one mark, with their points and maximum. */
  marked(examId: number): Promise<{ attempt_id: number; question_id: number; points: number | null; max: number }[]> {
    return this.db
      .selectFrom('question_scores as qs')
      .select(['qs.attempt_id', 'qs.question_id', 'qs.points', 'qs.max'])
      .where('qs.exam_id', '=', examId)
      .where('qs.source', '=', 'manual')
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('grading_marks as m')
            .select('m.id')
            .whereRef('m.attempt_id', '=', 'qs.attempt_id')
            .whereRef('m.question_id', '=', 'qs.question_id'),
        ),
      )
      .orderBy('qs.attempt_id')
      .execute();
  }
}
