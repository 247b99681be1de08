import { api, QUESTION_REGISTRY, type HomeData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ConsoleRepository } from '../repositories/console.js';
import { ProctorRepository } from '../repositories/proctor.js';
import type { AccessService, StaffActor } from './access.js';
import type { AnalysisService } from './analysis.js';
import { authorize } from './access.js';

/** Type ids of the kinds a grader scores (Q&A, programming Q&A). */
const GRADER_TYPES = [
  ...new Set(
    Object.values(QUESTION_REGISTRY)
      .filter((spec) => spec.scoring === 'grader')
      .map((spec) => spec.type),
  ),
];

/** The console home: what needs attention now, within the exams the caller may see. */
export class HomeService {
  private readonly proctor: ProctorRepository;
  private readonly console: ConsoleRepository;

  constructor(
    db: Db,
    private readonly access: AccessService,
    private readonly analysis: AnalysisService,
    private readonly clock: () => number,
  ) {
    this.proctor = new ProctorRepository(db);
    this.console = new ConsoleRepository(db);
  }

  /** Exams open now, flags nobody has decided, answers waiting for a grader, the caller's flagged questions. */
  async home(actor: StaffActor): Promise<HomeData> {
    authorize(actor, api.consoleHome);
    const filter = this.access.examFilter(actor);
    const now = this.clock();
    // The proctor console's overview is the one place attempts and open flags are counted per exam.
    const exams = await this.proctor.examsOverview(filter);
    const open = exams
      .filter((e) => e.status === 'published' && e.start_at <= now && now < e.end_at)
      .sort((a, b) => a.end_at - b.end_at || a.id - b.id)
      .map((e) => ({
        id: e.id,
        name: e.name,
        start_at: e.start_at,
        end_at: e.end_at,
        running: e.in_progress,
        attempts: e.attempts,
      }));
    return {
      open_exams: open,
      pending_flags: exams.reduce((n, e) => n + e.open_flags, 0),
      // Manual scores are not stored yet: every answer to a manually scored question of a submitted attempt waits.
      ungraded_answers: await this.console.answersOfTypes(filter, GRADER_TYPES),
      // The author's own questions: the analysis flags them for whoever wrote them, whoever ran it.
      flagged_questions: await this.analysis.flaggedOfAuthor(actor.id),
      server_time: now,
    };
  }
}
