import {
  detail,
  ExamPhase,
  MONITOR_STEPS,
  riskCategoryOf,
  stepSkippable,
  type EvidenceData,
  type RiskEventId,
} from '@examhall/contract';
import type { CheckBody } from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { AttemptRow } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { EvidenceRepository } from '../repositories/evidence.js';
import { RiskRepository } from '../repositories/risk.js';
import type { AttemptService } from './attempts.js';
import type { FaceCheckService } from './faceCheck.js';
import type { RiskService } from './risk.js';

/** Why the first picture does not pass the camera step, in the words of the error message. */
const CAMERA_PROBLEMS = {
  no_picture: 'no first picture has been recorded; take it first',
  no_face: 'no face in the first picture',
  several_faces: 'more than one face in the first picture',
  id_mismatch: 'the face in the first picture does not match the ID photo',
} as const;

/**
 * The device checks of the monitor phase: a step passes only on what the server can see for itself (the first
 * picture's one face, the phone having reported, the signature stored), a skip only where the exam allows it,
 * and each outcome is appended to the attempt's chain; a skip also records its risk event (15 to 18).
 */
export class DeviceCheckService {
  private readonly evidence: EvidenceRepository;
  private readonly chain: RiskRepository;

  constructor(
    db: Db,
    private readonly attempts: AttemptService,
    private readonly risk: RiskService,
    private readonly faces: FaceCheckService,
    private readonly clock: () => number,
  ) {
    this.evidence = new EvidenceRepository(db);
    this.chain = new RiskRepository(db);
  }

  /** POST /monitor/check: records one step's outcome, refusing a pass the evidence does not bear out. */
  async record(c: Candidate, body: z.output<typeof CheckBody>): Promise<EvidenceData> {
    await this.attempts.head(body.exam_id);
    const attempt = await this.attempts.started(c, body.exam_id);
    const seen = await this.chain.byClientId(attempt.id, body.client_id);
    if (seen) return { id: seen.id, hash: seen.hash };
    if (attempt.phase === ExamPhase.submit) throw fail('exam_finished');
    const step = MONITOR_STEPS.find((s) => s.id === body.step)!;
    const { settings } = await this.attempts.bundleOf(attempt);
    if (body.result === 'skipped' && !stepSkippable(settings, step.key)) throw fail('step_not_skippable');
    const found = body.result === 'passed' ? await this.evidenceOfPass(attempt, step.key) : null;

    const now = this.clock();
    const checkDetail = detail.check(body.step, body.result, body.device ?? null, found);
    const saved = await this.risk.append(attempt.id, body.client_id, {
      attempt_id: attempt.id,
      kind: 'check',
      risk: 0,
      category: 0,
      trigger_time: now,
      detail: checkDetail,
      image_key: null,
    });
    if (saved.fresh && body.result === 'skipped' && step.skipRisk !== null) {
      const risk: RiskEventId = step.skipRisk;
      await this.risk.append(attempt.id, `${body.client_id}:skip`, {
        attempt_id: attempt.id,
        risk,
        category: riskCategoryOf(risk),
        trigger_time: now,
        detail: detail.stepSkipped(body.step),
        image_key: null,
      });
    }
    if (saved.fresh && step.key === 'microphone' && body.result === 'passed' && body.device) {
      await this.evidence.setMonitorData(attempt.id, { microphone_id: body.device });
    }
    return { id: saved.id, hash: saved.hash };
  }

  /**
   * What the server holds that shows the step passed (kept in the check record), or the stable reason why it
   * did not: the browser's word is taken only for the microphone and the screen, which leave nothing to look at.
   */
  private async evidenceOfPass(
    attempt: AttemptRow,
    step: (typeof MONITOR_STEPS)[number]['key'],
  ): Promise<{ faces: number; id_similarity: number | null } | null> {
    switch (step) {
      case 'camera': {
        const verdict = await this.faces.firstPictureVerdict(attempt);
        if (verdict.problem !== null) throw fail('camera_check_failed', CAMERA_PROBLEMS[verdict.problem]);
        return { faces: verdict.faces, id_similarity: verdict.idSimilarity };
      }
      case 'mobileDevice':
        if (attempt.phone_seen_at == null) throw fail('phone_not_connected');
        return null;
      case 'signature':
        if (!attempt.signature_key)
          throw fail('evidence_missing', 'sign first: no signature capture has been recorded');
        return null;
      case 'microphone':
      case 'screenSharing':
        return null;
    }
  }
}
