import type { Kysely } from 'kysely';

/**
 * An exam's Safe Exam Browser requirement as candidates' calls read it (JSON of a SebRequirement; null: none): written
 * with the other fields candidates read, from the draft until the first publish and from each published version after,
 * so every candidate call checks it from the exams row it reads anyway.
 */
export function examSeb() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('exams').addColumn('seb', 'text').execute();
    },
  };
}
