import {
  ExamPhase,
  RISK_EVENTS,
  riskCategoryOf,
  type api,
  type ParsedBody,
  type RecordRiskData,
  type RiskEventId,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Candidate } from '../repositories/candidates.js';
import { RiskRepository } from '../repositories/risk.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import type { AttemptService } from './attempts.js';
import {
  attemptPrefix,
  GENESIS_HASH,
  isUnder,
  riskHash,
  walkChain,
  type ChainedFields,
  type ChainInput,
} from './chain.js';

/** A risk record a candidate's page made. */
export interface RecordedRisk {
  attemptId: number;
  recordId: number;
  risk: number;
  detail: string;
  imageKey: string | null;
}

/** Risk events: recorded with time and evidence in a hash chain per attempt; screen switches count against cutting_times. */
export class RiskService {
  /** Told of every fresh record a candidate's page makes (the face monitor's flags are checked again by the server). */
  afterRecord: ((record: RecordedRisk) => Promise<unknown>) | null = null;

  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly clock: () => number,
    private readonly notifier: ProctorNotifier,
  ) {}

  /** Records one event (idempotent by client id); a screen switch past the allowance submits the attempt. */
  async record(
    c: Candidate,
    body: ParsedBody<typeof api.recordRisk> | ParsedBody<typeof api.fastRecordRisk>,
  ): Promise<RecordRiskData> {
    await this.attempts.head(body.exam_id);
    const attempt = await this.attempts.started(c, body.exam_id);
    const bundle = await this.attempts.bundleOf(attempt);
    // A picture named in a risk record must be the attempt's own: the console shows it to proctors.
    if (body.image_key !== undefined && !isUnder(body.image_key, attemptPrefix(attempt)))
      throw fail('key_outside_attempt');
    const category = riskCategoryOf(body.risk as RiskEventId);
    const row = {
      attempt_id: attempt.id,
      risk: body.risk,
      category,
      trigger_time: body.trigger_time,
      detail: body.detail ?? '',
      image_key: body.image_key ?? null,
    };
    const saved = await this.append(attempt.id, body.client_id, row);
    if (saved.fresh && this.afterRecord) {
      await this.afterRecord({
        attemptId: attempt.id,
        recordId: saved.id,
        risk: row.risk,
        detail: row.detail,
        imageKey: row.image_key,
      });
    }
    let current = attempt;
    if (saved.fresh && body.risk === RISK_EVENTS.screenSwitch.id && attempt.phase === ExamPhase.exam) {
      const used = await new RiskRepository(this.db).addCut(attempt.id);
      if (used > bundle.settings.cutting_times) current = await this.attempts.finish(attempt.id, 'cuts');
      else current = { ...attempt, cuts_used: used };
    }
    return {
      id: saved.id,
      hash: saved.hash,
      cuts_left: bundle.settings.cutting_times - current.cuts_used,
      phase: current.phase as RecordRiskData['phase'],
    };
  }

  /**
   * Appends a risk event, check or piece of evidence to the attempt's chain (idempotent by client id) and
   * announces a fresh record. Two writers racing for the same predecessor collide on the unique
   * (attempt, prev_hash) pair and the loser retries on the new end of the chain.
   */
  async append(
    attemptId: number,
    clientId: string,
    input: ChainInput,
  ): Promise<{ id: number; hash: string; fresh: boolean }> {
    const repo = new RiskRepository(this.db);
    const row: ChainedFields = { ...input, kind: input.kind ?? 'risk', sha256: input.sha256 ?? null };
    for (let tries = 0; ; tries++) {
      const seen = await repo.byClientId(attemptId, clientId);
      if (seen) return { id: seen.id, hash: seen.hash, fresh: false };
      const prev = (await repo.lastHash(attemptId)) ?? GENESIS_HASH;
      const hash = riskHash(prev, row);
      try {
        const id = await repo.insert({
          ...row,
          size: input.size ?? null,
          client_id: clientId,
          prev_hash: prev,
          hash,
          created_at: this.clock(),
        });
        this.notifier.announce({ type: 'record', attemptId, recordId: id });
        return { id, hash, fresh: true };
      } catch (err) {
        if (tries >= 5) throw err;
      }
    }
  }

  /** Checks an attempt's chain: every record's hash and link; `brokenAt` is the first record at fault. */
  async verifyChain(attemptId: number): Promise<{ ok: boolean; records: number; brokenAt: number | null }> {
    const links = walkChain(await new RiskRepository(this.db).chain(attemptId));
    const broken = links.find((l) => l.fault !== null);
    return { ok: !broken, records: links.length, brokenAt: broken?.record.id ?? null };
  }
}
