import type { Kysely } from 'kysely';

/**
 * An ID photo per invitation, which face checks compare camera pictures with. It belongs to the invitation
 * (the person invited), not to an attempt: it is set before the exam and holds for every attempt at it.
 * The digest identifies the picture: replacing it under the same key changes the digest, so a cached
 * embedding of the old picture is never mistaken for the new one.
 */
export function idPhoto() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
      await db.schema.alterTable('invitations').addColumn('id_photo_key', 'text').execute();
      await db.schema.alterTable('invitations').addColumn('id_photo_sha256', 'text').execute();
    },
  };
}
