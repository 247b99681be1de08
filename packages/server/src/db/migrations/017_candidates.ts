import type { Kysely } from 'kysely';

/**
 * The candidate directory: candidates staff add or import carry an email and custom fields (JSON of column to
 * value) besides the profile, and a candidate is seen by the teams linked to it (one person may apply to the
 * recruiting of several teams, so a link table, not a column).
 */
export function candidates() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('candidates')
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('candidates')
        .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema
        .createTable('candidate_team')
        .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidates.id').onDelete('cascade'))
        .addColumn('added_by', 'integer', (c) => c.references('staff.id').onDelete('set null'))
        .addColumn('added_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('candidate_team_pk', ['team_id', 'candidate_id'])
        .execute();
      await db.schema.createIndex('candidate_team_candidate').on('candidate_team').column('candidate_id').execute();
      // The directory lists and sorts by name and school.
      await db.schema.createIndex('candidates_name').on('candidates').column('name').execute();
      await db.schema.createIndex('candidates_school').on('candidates').column('school').execute();
    },
  };
}
