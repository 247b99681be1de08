import { api, type GradingSettings, type GradingSetupData, type ParsedBody } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { GradingRepository } from '../repositories/grading.js';
import { TeamRepository } from '../repositories/teams.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { gradingSettingsOf, sumScore } from './gradingRules.js';
import { manualFinal } from './scoring.js';
import type { ScoreOutbox } from './webhooks.js';

/** What grading's set-up needs. */
export interface GradingSetupDeps {
  access: AccessService;
  audit: AuditService;
  clock: () => number;
  /** Hears every score that new settings decide or change, inside its transaction (webhooks). */
  outbox?: ScoreOutbox;
  actorById: (id: number) => Promise<StaffActor | null>;
}

/** Grading's set-up: an exam's settings (blind, double marking, margin) and its graders per exam or section. */
export class GradingSetupService {
  private readonly repo: GradingRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: GradingSetupDeps,
  ) {
    this.repo = new GradingRepository(db);
  }

  /** An exam's settings and graders. */
  async setup(actor: StaffActor, examId: number): Promise<GradingSetupData> {
    await this.deps.access.requireFor(actor, api.gradingSetup, examId);
    return this.setupOf(examId);
  }

  private async setupOf(examId: number): Promise<GradingSetupData> {
    return {
      settings: await gradingSettingsOf(this.repo, examId),
      graders: (await this.repo.graders(examId)).map((g) => ({
        ...g,
        sections: g.sections as GradingSetupData['graders'][number]['sections'],
      })),
    };
  }

  /** Changes an exam's grading settings (audited). */
  async saveSettings(actor: StaffActor, body: ParsedBody<typeof api.gradingSettings>): Promise<GradingSetupData> {
    await this.deps.access.requireFor(actor, api.gradingSettings, body.exam_id);
    const before = await gradingSettingsOf(this.repo, body.exam_id);
    const after: GradingSettings = { blind: body.blind, double_marking: body.double_marking, margin: body.margin };
    await this.db.transaction().execute(async (trx) => {
      await new GradingRepository(trx).saveSettings({
        exam_id: body.exam_id,
        blind: after.blind ? 1 : 0,
        double_marking: after.double_marking ? 1 : 0,
        margin: after.margin,
        updated_at: this.deps.clock(),
        updated_by: actor.id,
      });
      const redecided = await this.redecide(trx, body.exam_id, after);
      await this.deps.audit
        .with(trx)
        .record(actor, 'grading.settings', { kind: 'exam', id: body.exam_id }, before, { ...after, redecided });
    });
    return this.setupOf(body.exam_id);
  }

  /**
   * Decides every marked answer of the exam again under new settings (a wider margin settles two marks, double
   * marking turned on waits for a second one) and updates the final scores that change; answers how many did.
   */
  private async redecide(trx: Db, examId: number, settings: GradingSettings): Promise<number> {
    const repo = new GradingRepository(trx);
    const touched = new Set<number>();
    for (const a of await repo.marked(examId)) {
      const marks = await repo.marks(a.attempt_id, a.question_id);
      const final = manualFinal(
        marks.map((m) => ({ total: m.total, reconciling: m.reconciling === 1 })),
        settings,
        a.max,
      );
      if (final === a.points) continue;
      await repo.setPoints(a.attempt_id, a.question_id, final, this.deps.clock());
      touched.add(a.attempt_id);
    }
    for (const attemptId of touched) {
      await sumScore(trx, attemptId);
      await this.deps.outbox?.noteScore(trx, attemptId);
    }
    return touched.size;
  }

  /** Assigns a grader to the exam, for the whole exam or some sections (audited). */
  async assign(actor: StaffActor, body: ParsedBody<typeof api.gradingAssign>): Promise<GradingSetupData> {
    await this.deps.access.requireFor(actor, api.gradingAssign, body.exam_id);
    // The grader must be an account the actor reaches, in the grader role (else 404, as for any resource).
    await this.deps.access.require(actor, 'exam.manage', 'staff', body.staff_id);
    const member = await this.deps.actorById(body.staff_id);
    if (!member || member.role !== 'grader') throw fail('not_found', `no such grader ${body.staff_id}`);
    const sections = [...new Set(body.sections)].sort();
    await this.db.transaction().execute(async (trx) => {
      const teams = new TeamRepository(trx);
      const repo = new GradingRepository(trx);
      const assigned = await teams.assignment(body.exam_id, body.staff_id, 'grader');
      const before = assigned
        ? { staff_id: body.staff_id, sections: await repo.sectionsOf(body.exam_id, body.staff_id) }
        : null;
      if (!assigned) {
        await teams.assign({
          exam_id: body.exam_id,
          staff_id: body.staff_id,
          role: 'grader',
          created_at: this.deps.clock(),
        });
      }
      await repo.setSections(body.exam_id, body.staff_id, sections);
      await this.deps.audit.with(trx).record(actor, 'grading.assign', { kind: 'exam', id: body.exam_id }, before, {
        staff_id: body.staff_id,
        sections,
      });
    });
    return this.setupOf(body.exam_id);
  }
}
