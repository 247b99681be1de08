/** A bare exam for data-layer tests, written straight to the database. */
import type { Db } from '../db/database.js';

/** A published exam with no version or questions, open over `window` (created at `now`); answers its id. */
export async function bareExam(
  db: Db,
  window: { start_at: number; end_at: number },
  opts: { mode?: number; now?: number } = {},
): Promise<number> {
  const row = await db
    .insertInto('exams')
    .values({
      name: '校招笔试',
      description: '',
      mode: opts.mode ?? 0,
      time_minutes: 60,
      ...window,
      settings: '{}',
      created_at: opts.now ?? Date.now(),
      status: 'published',
      draft: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
