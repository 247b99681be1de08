import { ExamPhase } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { examVisible, type ExamFilter } from './access.js';

/** Counts of the console home. */
export class ConsoleRepository {
  constructor(private readonly db: Db) {}

  /** Answers to questions of these types in submitted attempts at the exams a filter allows. */
  async answersOfTypes(filter: ExamFilter, types: readonly number[]): Promise<number> {
    if (types.length === 0) return 0;
    const row = await this.db
      .selectFrom('answers as an')
      .innerJoin('attempts as a', 'a.id', 'an.attempt_id')
      .innerJoin('questions as q', 'q.id', 'an.question_id')
      .innerJoin('exams', 'exams.id', 'a.exam_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('a.phase', '=', ExamPhase.submit)
      // A preview attempt counts nowhere.
      .where('a.preview', '=', 0)
      // A staff member's preview attempt counts nowhere.
      .where('a.preview', '=', 0)
      .where('q.type', 'in', [...types])
      .where(examVisible(filter))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
