import {
  ExamMode,
  ExamPhase,
  type api,
  type ParsedQuery,
  type ResultListData,
  type ResultView,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { ResultRepository, type ResultRow } from '../repositories/integrations.js';
import type { ExamCatalog } from './catalog.js';
import { passedBy } from './outcome.js';

/** Who reads results: an API token's team (null: every exam). */
export interface ResultReader {
  teamId: number | null;
}

/**
 * Final results as other systems read them (the results call and the webhook's body): attempts finished, not
 * practice, not previews, with every point known. Whether a score passes is the exam version's rule on it.
 */
export class ResultFeedService {
  private readonly repo: ResultRepository;

  constructor(
    db: Db,
    private readonly catalog: ExamCatalog,
  ) {
    this.repo = new ResultRepository(db);
  }

  /** Whether `score` clears the passing rule of the attempt's version (null: no rule, or no version). */
  private async passed(versionId: number | null, score: number, max: number): Promise<boolean | null> {
    if (versionId === null) return null;
    const version = await this.catalog.version(versionId);
    const rule = version?.definition?.passing ?? { kind: 'none' as const };
    return passedBy(rule, score, max, false);
  }

  private async view(r: ResultRow, points: { score: number; max_score: number; scored_at: number }) {
    const view: ResultView = {
      attempt_id: r.attempt_id,
      exam_id: r.exam_id,
      exam_name: r.exam_name,
      candidate: { id: r.candidate_id, name: r.name ?? '', area_code: r.area_code, phone: r.phone, email: r.email },
      score: points.score,
      max_score: points.max_score,
      passed: await this.passed(r.version_id, points.score, points.max_score),
      finished_at: r.finished_at ?? points.scored_at,
      scored_at: points.scored_at,
    };
    return view;
  }

  /** One attempt's result with the points an event carries. */
  async resultOf(
    attemptId: number,
    points: { score: number; max_score: number; scored_at: number },
  ): Promise<ResultView> {
    const row = await this.repo.one(attemptId);
    if (!row) throw new Error(`attempt ${attemptId} is gone`);
    return this.view(row, points);
  }

  /**
   * A page of final results after the cursor, by attempt id. A team's reader names only its team's exams: any
   * other exam answers not found, as a missing one does.
   */
  async page(reader: ResultReader, q: ParsedQuery<typeof api.resultList>): Promise<ResultListData> {
    if (q.exam_id !== undefined) {
      const exam = await this.repo.examTeam(q.exam_id);
      if (!exam || (reader.teamId !== null && exam.team_id !== reader.teamId)) {
        throw fail('not_found', `no such exam ${q.exam_id}`);
      }
    }
    const rows = await this.repo.page({
      phase: ExamPhase.submit,
      practiceMode: ExamMode.simulate,
      examId: q.exam_id,
      teamId: reader.teamId,
      after: q.after,
      limit: q.limit + 1,
    });
    const more = rows.length > q.limit;
    const page = rows.slice(0, q.limit);
    const list = await Promise.all(
      page.map((r) =>
        this.view(r, {
          score: r.score ?? 0,
          max_score: r.max_score ?? 0,
          scored_at: r.scored_at ?? r.finished_at ?? 0,
        }),
      ),
    );
    return { list, next_after: more ? page[page.length - 1]!.attempt_id : null };
  }
}
