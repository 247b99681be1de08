import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * The question bank: a tree of folders per team, questions with their typed body, metadata and tags, and
 * the link from an exam version's frozen copy back to the bank question it was made from (what "used"
 * counts). Every filter of the bank's list leads with team_id, since every list is one team's.
 */
export function bank(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('bank_folders')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('team_id', 'integer', (c) => c.references('teams.id'))
        // Restrict: a folder is deleted only when empty, so a parent never goes while it has children.
        .addColumn('parent_id', 'integer', (c) => c.references('bank_folders.id').onDelete('restrict'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bank_folders_parent').on('bank_folders').columns(['team_id', 'parent_id']).execute();

      await db.schema
        .createTable('bank_questions')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('team_id', 'integer', (c) => c.references('teams.id'))
        .addColumn('folder_id', 'integer', (c) => c.references('bank_folders.id').onDelete('restrict'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('stem_text', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('answer_key', 'text', (c) => c.notNull())
        .addColumn('difficulty', 'integer', (c) => c.notNull())
        .addColumn('knowledge_points', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('default_score', 'double precision', (c) => c.notNull())
        .addColumn('author_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('editor_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('verification', 'text')
        .execute();
      for (const [name, columns] of [
        ['bank_questions_folder', ['team_id', 'folder_id']],
        ['bank_questions_kind', ['team_id', 'kind']],
        ['bank_questions_difficulty', ['team_id', 'difficulty']],
        ['bank_questions_author', ['team_id', 'author_id']],
        ['bank_questions_updated', ['team_id', 'updated_at']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('bank_questions')
          .columns([...columns])
          .execute();
      }

      await db.schema
        .createTable('bank_question_tags')
        .addColumn('question_id', 'integer', (c) => c.notNull().references('bank_questions.id').onDelete('cascade'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('bank_question_tags_pk', ['question_id', 'tag'])
        .execute();
      await db.schema
        .createIndex('bank_question_tags_tag')
        .on('bank_question_tags')
        .columns(['tag', 'question_id'])
        .execute();

      // Set null: a bank question used by a version is never deleted (the bank keeps it), so this only
      // matters for copies nothing counts, such as a preview's.
      await db.schema
        .alterTable('questions')
        .addColumn('bank_question_id', 'integer', (c) => c.references('bank_questions.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('questions_bank').on('questions').columns(['bank_question_id', 'exam_id']).execute();
    },
  };
}
