/** Finished, scored attempts of one exam, written straight to the database, for the webhook tests. */
import type { Db } from '../db/database.js';
import { bareExam } from './exams.js';

/** `count` candidates invited to a new exam, each with a finished attempt scored `i` of 100; answers their ids. */
export async function finishedAttempts(
  db: Db,
  count: number,
  now = Date.now(),
): Promise<{ examId: number; attemptIds: number[] }> {
  const examId = await bareExam(db, { start_at: now - 86_400_000, end_at: now + 86_400_000 }, { mode: 1, now });
  const attemptIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const phone = `1391111${String(i).padStart(4, '0')}`;
    const candidate = await db
      .insertInto('candidates')
      .values({
        area_code: '86',
        phone,
        name: `候选人 ${i}`,
        school: null,
        major: null,
        degree: null,
        graduation_year: null,
        created_at: now,
        last_login_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const invitation = await db
      .insertInto('invitations')
      .values({ exam_id: examId, area_code: '86', phone, extra_minutes: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const attempt = await db
      .insertInto('attempts')
      .values({
        exam_id: examId,
        candidate_id: candidate.id,
        invitation_id: invitation.id,
        mode: 1,
        phase: 3,
        created_at: now,
        started_at: now,
        end_at: now,
        finished_at: now,
        finish_reason: 'submit',
        score: i,
        max_score: 100,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    attemptIds.push(attempt.id);
  }
  return { examId, attemptIds };
}
