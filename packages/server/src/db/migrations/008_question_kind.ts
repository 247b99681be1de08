import { kindOfStored, SECTIONS, type Section } from '@examhall/contract';
import { sql, type Kysely } from 'kysely';

/**
 * The typed question model's discriminator on every stored question: its kind, derived from the type id and
 * the section it sits in (type 11 in the evaluation section is an evaluation item, elsewhere a gradient
 * question). A row whose type fits no kind keeps '' and is reported as question_invalid when read.
 * The mapping is the contract's (question type ids never change, so it does not drift).
 */
export function questionKind() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds a NOT NULL column only with a default; every row is filled right below.
      await db.schema
        .alterTable('questions')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await fillQuestionKinds(db);
    },
  };
}

/** Sets the kind of every question stored without one ('') from its type and its section's kind. */
export async function fillQuestionKinds<DB>(db: Kysely<DB>): Promise<void> {
  const pairs = await sql<{ type: number; section: string }>`
    select distinct q.type as type, s.kind as section
    from questions q join exam_sections s on s.id = q.section_id
    where q.kind = ''`.execute(db);
  for (const { type, section } of pairs.rows) {
    if (!(SECTIONS as readonly string[]).includes(section)) continue;
    const kind = kindOfStored(Number(type), section as Section);
    if (!kind) continue;
    await sql`
      update questions set kind = ${kind}
      where kind = '' and type = ${Number(type)}
        and section_id in (select id from exam_sections where kind = ${section})`.execute(db);
  }
}
