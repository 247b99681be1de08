import type { Kysely } from 'kysely';

/**
 * A proctor's decision carries two notes: the internal one (decision_note) that stays on the staff side, and
 * one written for the candidate, the only one their integrity log shows. Notes written before this change
 * stay internal: they were never meant as a message to the candidate.
 */
export function candidateNote() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('risk_records')
        .addColumn('candidate_note', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  };
}
