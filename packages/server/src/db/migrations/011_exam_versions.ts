import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/** What the migration reads of a section. */
interface LegacySection {
  id: number;
  exam_id: number;
  kind: string;
  title: string;
  order_num: number;
}

/** What the migration reads of a question. */
interface LegacyQuestion {
  id: number;
  section_id: number;
  kind: string;
  type: number;
  score: number;
  content: string;
  answer_key: string;
  bank_question_id: number | null;
}

/** Plain text of stored rich text, for the bank's search (tags dropped, entities of the editor decoded). */
function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Who the imported bank questions name as author: the first admin, or (with no staff yet) a disabled account
 * made for it, whose "phone" no login form accepts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function importAuthor(db: Kysely<any>, now: number): Promise<number> {
  const admin = (await db
    .selectFrom('staff')
    .select('id')
    .where('role', '=', 'admin')
    .orderBy('id')
    .executeTakeFirst()) as { id: number } | undefined;
  if (admin) return admin.id;
  const created = (await db
    .insertInto('staff')
    .values({
      area_code: '86',
      phone: 'imported-content',
      name: '导入内容 Imported content',
      role: 'author',
      password_hash: '!',
      disabled: 1,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()) as { id: number };
  return created.id;
}

/** Gives each question of an exam that has no bank question one, in a folder of the exam's team. */
async function importQuestions(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  exam: LegacyExam & { team_id?: number | null },
  questions: LegacyQuestion[],
  author: number,
): Promise<void> {
  const missing = questions.filter((q) => q.bank_question_id === null);
  if (missing.length === 0) return;
  const team = exam.team_id ?? null;
  const folder = (await db
    .insertInto('bank_folders')
    .values({
      team_id: team,
      parent_id: null,
      name: `${exam.name} (imported ${exam.id})`.slice(0, 100),
      created_by: author,
      created_at: exam.created_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()) as { id: number };
  for (const q of missing) {
    let content: { stem?: string; passage?: string; options?: { content?: string }[] } = {};
    try {
      content = JSON.parse(q.content) as typeof content;
    } catch {
      content = {};
    }
    const text = [content.stem ?? '', content.passage ?? '', ...(content.options ?? []).map((o) => o.content ?? '')]
      .map(plainText)
      .filter(Boolean)
      .join(' ');
    const bank = (await db
      .insertInto('bank_questions')
      .values({
        team_id: team,
        folder_id: folder.id,
        kind: q.kind,
        type: q.type,
        stem_text: text,
        content: q.content,
        answer_key: q.answer_key,
        difficulty: 3,
        knowledge_points: '[]',
        default_score: q.score,
        author_id: author,
        editor_id: author,
        created_at: exam.created_at,
        updated_at: exam.created_at,
        revision: 1,
        verification: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()) as { id: number };
    await db.updateTable('questions').set({ bank_question_id: bank.id }).where('id', '=', q.id).execute();
    q.bank_question_id = bank.id;
  }
}

/** What the migration reads of an exam. */
interface LegacyExam {
  id: number;
  name: string;
  description: string;
  mode: number;
  time_minutes: number;
  start_at: number;
  end_at: number;
  settings: string;
  created_at: number;
}

/**
 * Exams with an editable draft and immutable versions. An exam keeps its draft (the author's definition, JSON)
 * and points at its published version; a version freezes the definition, its sections (draw sections with
 * the number to draw) and copies of its questions. Attempts name the version they run on and, when it
 * draws or shuffles, the questions they got; previews (version, invitation, attempt) count nowhere.
 * Existing exams become version 1, published, holding their sections and questions; their attempts run on it.
 */
export function examVersions(kit: DialectKit) {
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      // The migration speaks of tables by name, as they stand at this point of the history.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = untyped as Kysely<any>;
      await db.schema
        .createTable('exam_versions')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('definition', 'text', (c) => c.notNull())
        .addColumn('published_at', 'bigint', (c) => c.notNull())
        .addColumn('published_by', 'integer')
        .addColumn('preview', 'integer', (c) => c.notNull().defaultTo(0))
        // Two publishes at once: one of them gets the number, the other a conflict.
        .addUniqueConstraint('exam_versions_number', ['exam_id', 'preview', 'number'])
        .execute();

      // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
      await db.schema
        .alterTable('exams')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
        .execute();
      await db.schema.alterTable('exams').addColumn('draft', 'text').execute();
      await db.schema
        .alterTable('exams')
        .addColumn('published_version_id', 'integer', (c) => c.references('exam_versions.id'))
        .execute();
      await db.schema
        .alterTable('exams')
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('exams')
        .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('exams').addColumn('created_by', 'integer').execute();

      await db.schema
        .alterTable('exam_sections')
        .addColumn('version_id', 'integer', (c) => c.references('exam_versions.id').onDelete('cascade'))
        .execute();
      await db.schema.alterTable('exam_sections').addColumn('draw_count', 'integer').execute();
      await db.schema
        .alterTable('questions')
        .addColumn('version_id', 'integer', (c) => c.references('exam_versions.id').onDelete('cascade'))
        .execute();
      await db.schema
        .alterTable('attempts')
        .addColumn('version_id', 'integer', (c) => c.references('exam_versions.id'))
        .execute();
      await db.schema.alterTable('attempts').addColumn('question_ids', 'text').execute();
      await db.schema
        .alterTable('attempts')
        .addColumn('preview', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('invitations')
        .addColumn('preview', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // The preview version a preview invitation opens (null: the exam's published version).
      await db.schema
        .alterTable('invitations')
        .addColumn('version_id', 'integer', (c) => c.references('exam_versions.id').onDelete('cascade'))
        .execute();

      await db.schema.createIndex('exam_versions_exam').on('exam_versions').columns(['exam_id', 'id']).execute();
      await db.schema.createIndex('exam_sections_version').on('exam_sections').columns(['version_id']).execute();
      await db.schema.createIndex('questions_version').on('questions').columns(['version_id', 'order_num']).execute();
      await db.schema.createIndex('exams_status').on('exams').columns(['status', 'updated_at']).execute();

      // Existing exams: each becomes version 1, published, with what it holds now. Their questions were
      // written before the bank: each gets a bank question (in a folder named after its exam) that the draft
      // lists, so the exam can be edited and published again like any other.
      const exams = (await db.selectFrom('exams').selectAll().execute()) as LegacyExam[];
      const author = exams.length > 0 ? await importAuthor(db, exams[0]!.created_at) : 0;
      for (const exam of exams) {
        const sections = (await db
          .selectFrom('exam_sections')
          .selectAll()
          .where('exam_id', '=', exam.id)
          .orderBy('order_num')
          .execute()) as LegacySection[];
        const questions = (await db
          .selectFrom('questions')
          .selectAll()
          .where('exam_id', '=', exam.id)
          .orderBy('order_num')
          .orderBy('id')
          .execute()) as LegacyQuestion[];
        await importQuestions(db, exam, questions, author);
        const positions = (await db
          .selectFrom('positions')
          .select(['title', 'department', 'city', 'description', 'min_ratio'])
          .where('exam_id', '=', exam.id)
          .orderBy('id')
          .execute()) as Record<string, unknown>[];
        let settings: Record<string, unknown> = {};
        try {
          settings = JSON.parse(exam.settings) as Record<string, unknown>;
        } catch {
          settings = {};
        }
        const definition = {
          name: exam.name,
          description: exam.description,
          mode: exam.mode,
          time_minutes: exam.time_minutes,
          start_at: exam.start_at,
          end_at: exam.end_at,
          settings,
          pledge: '',
          passing: { kind: 'none' },
          show_score: 'score',
          id_photo_required: false,
          shuffle_questions: false,
          shuffle_options: false,
          positions,
          sections: sections.map((s) => ({
            kind: s.kind,
            title: s.title,
            items: questions
              .filter((q) => q.section_id === s.id && q.bank_question_id !== null)
              .map((q) => ({ question_id: q.bank_question_id, points: q.score })),
          })),
        };
        const json = JSON.stringify(definition);
        const version = (await db
          .insertInto('exam_versions')
          .values({
            exam_id: exam.id,
            number: 1,
            definition: json,
            published_at: exam.created_at,
            published_by: null,
            preview: 0,
          })
          .returning('id')
          .executeTakeFirstOrThrow()) as { id: number };
        await db.updateTable('exam_sections').set({ version_id: version.id }).where('exam_id', '=', exam.id).execute();
        await db.updateTable('questions').set({ version_id: version.id }).where('exam_id', '=', exam.id).execute();
        await db.updateTable('attempts').set({ version_id: version.id }).where('exam_id', '=', exam.id).execute();
        await db
          .updateTable('exams')
          .set({
            status: 'published',
            draft: json,
            published_version_id: version.id,
            updated_at: exam.created_at,
          })
          .where('id', '=', exam.id)
          .execute();
      }
    },
  };
}
