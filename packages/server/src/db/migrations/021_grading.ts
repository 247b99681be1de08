import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Grading: one score row per attempt and question (automatic, judged or a grader's), which the final score
 * and later item analysis read; each exam's grading settings; graders limited to sections; graders' marks.
 * Rubrics are part of a question's key (contract questions/text.ts), so they are versioned with the question.
 */
export function grading(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('question_scores')
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        // 'auto', 'judge' or 'manual'.
        .addColumn('source', 'text', (c) => c.notNull())
        // Null while a grader's answer waits for its final mark.
        .addColumn('points', 'double precision')
        .addColumn('max', 'double precision', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('question_scores_pk', ['attempt_id', 'question_id'])
        .execute();
      await db.schema
        .createIndex('question_scores_exam')
        .on('question_scores')
        .columns(['exam_id', 'source', 'question_id'])
        .execute();
      await db.schema
        .createTable('exam_grading')
        .addColumn('exam_id', 'integer', (c) => c.primaryKey().references('exams.id').onDelete('cascade'))
        .addColumn('blind', 'integer', (c) => c.notNull())
        .addColumn('double_marking', 'integer', (c) => c.notNull())
        .addColumn('margin', 'double precision', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .execute();
      await db.schema
        .createTable('grader_sections')
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
        // 'linetest' or 'major'; no row for a grader of the whole exam.
        .addColumn('section', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('grader_sections_pk', ['exam_id', 'staff_id', 'section'])
        .execute();
      await db.schema
        .createTable('grading_marks')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        .addColumn('grader_id', 'integer', (c) => c.notNull().references('staff.id'))
        // JSON array of points per criterion, in the rubric's order.
        .addColumn('criteria', 'text', (c) => c.notNull())
        .addColumn('total', 'double precision', (c) => c.notNull())
        .addColumn('comment', 'text', (c) => c.notNull())
        .addColumn('reconciling', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('grading_marks_once', ['attempt_id', 'question_id', 'grader_id', 'reconciling'])
        .execute();
      await db.schema.createIndex('grading_marks_exam').on('grading_marks').columns(['exam_id', 'grader_id']).execute();
    },
  };
}
