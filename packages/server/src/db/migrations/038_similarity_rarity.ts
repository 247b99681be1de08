import type { Kysely } from 'kysely';

/**
 * A similarity run keeps how rare each fingerprint is among the question's submissions, so the pair view can show
 * the matched fragments rarest first: per language, the number of submissions compared and, for every fingerprint
 * two or more of them hold, how many hold it (JSON `{"<language>": {"n": N, "holders": [[fingerprint, count], ...]}}`).
 * Runs stored before it have none (`{}`): their fragments keep the order of the code until the next run.
 */
export function similarityRarity() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('similarity_runs')
        .addColumn('rarity', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  };
}
