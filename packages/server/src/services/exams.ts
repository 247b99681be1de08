import type { ExamIndexData, ExamListItem, InvitationState } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ExamRepository, type InvitedExam } from '../repositories/exams.js';
import type { Candidate } from '../repositories/candidates.js';

/** Where a candidate stands with an exam, from its window (attempts refine this later). */
function stateOf(exam: InvitedExam['exam'], now: number): InvitationState {
  if (now < exam.start_at) return 'not_started';
  if (now >= exam.end_at) return 'closed';
  return 'open';
}

/** Exams as candidates see them. */
export class ExamService {
  private readonly repo: ExamRepository;

  constructor(
    db: Db,
    private readonly clock: () => number,
  ) {
    this.repo = new ExamRepository(db);
  }

  /** The exams the candidate is invited to, one page. */
  async listForCandidate(c: Candidate, page: number, pageSize: number): Promise<ExamIndexData> {
    const [rows, total] = await Promise.all([
      this.repo.listInvited(c.area_code, c.phone, (page - 1) * pageSize, pageSize),
      this.repo.countInvited(c.area_code, c.phone),
    ]);
    const now = this.clock();
    const list = rows.map(({ exam, anid, extraMinutes }): ExamListItem => ({
      id: exam.id,
      anid,
      name: exam.name,
      mode: exam.mode as ExamListItem['mode'],
      time: exam.time_minutes + extraMinutes,
      start_at: exam.start_at,
      end_at: exam.end_at,
      state: stateOf(exam, now),
    }));
    return { list, total };
  }
}
