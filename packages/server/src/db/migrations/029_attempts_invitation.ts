import type { Kysely } from 'kysely';

/**
 * Attempts by invitation. The reminder sweep (every minute), the invitation list and the schedule ask whether an
 * invitation has an attempt; without an index each asking read every attempt, so the sweep's cost grew with the
 * square of the candidates: at 19,000 candidates it held the one process for 25 seconds every minute, and every
 * call waited behind it.
 */
export function attemptsInvitation() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('attempts_invitation').on('attempts').column('invitation_id').execute();
    },
  };
}
