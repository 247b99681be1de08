import { createHash } from 'node:crypto';
import { ExamPhase, RISK_EVENTS, riskCategoryOf, type RecordRiskData, type RiskEventId } from '@examhall/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { RiskRecordTable } from '../db/schema.js';
import { fail } from '../http/errors.js';
import type { AttemptRow } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { RiskRepository } from '../repositories/risk.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { checkKey } from '../storage/objectStore.js';
import type { AttemptService } from './attempts.js';

/** The storage prefix of an attempt: every object of the attempt lives under it. */
export function attemptPrefix(attempt: Pick<AttemptRow, 'exam_id' | 'id'>): string {
  return `exams/${attempt.exam_id}/attempts/${attempt.id}/`;
}

/** Whether `key` is a plain object key under `prefix`. */
export function isUnder(key: string, prefix: string): boolean {
  try {
    return checkKey(key).startsWith(prefix);
  } catch {
    return false;
  }
}

/** Hash of the chain's first link. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of a chain record its hash covers. */
export type ChainedFields = Pick<
  Selectable<RiskRecordTable>,
  'attempt_id' | 'risk' | 'category' | 'trigger_time' | 'detail' | 'image_key' | 'kind' | 'sha256'
>;

/** A record to append: risk events leave kind and sha256 out. */
export type ChainInput = Omit<ChainedFields, 'kind' | 'sha256'> &
  Partial<Pick<ChainedFields, 'kind' | 'sha256'>> & { size?: number | null };

/**
 * The hash of a chain record (risk event, check or evidence): its fields in a fixed order, after the hash of
 * the record before. A risk event without a file keeps the original form, so chains written before evidence
 * joined them still verify; any other record also covers its kind and file digest.
 */
export function riskHash(prevHash: string, r: ChainedFields): string {
  const fields: unknown[] = [prevHash, r.attempt_id, r.risk, r.category, Number(r.trigger_time), r.detail, r.image_key];
  if (r.kind !== 'risk' || r.sha256 !== null) fields.push(r.kind, r.sha256);
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** Risk events: recorded with time and evidence in a hash chain per attempt; screen switches count against cutting_times. */
export class RiskService {
  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly clock: () => number,
    private readonly notifier: ProctorNotifier,
  ) {}

  /** Records one event (idempotent by client id); a screen switch past the allowance submits the attempt. */
  async record(
    c: Candidate,
    body: {
      exam_id: number;
      risk: number;
      trigger_time: number;
      image_key?: string | undefined;
      detail?: string | undefined;
      client_id: string;
    },
  ): Promise<RecordRiskData> {
    await this.attempts.head(body.exam_id);
    const attempt = await this.attempts.current(c, body.exam_id);
    if (!attempt) {
      await this.attempts.invitationByExam(c, body.exam_id);
      throw fail('exam_not_started');
    }
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

  /** Checks an attempt's chain: every record's hash and link. */
  async verifyChain(attemptId: number): Promise<{ ok: boolean; records: number; brokenAt: number | null }> {
    const rows = await new RiskRepository(this.db).chain(attemptId);
    let prev = GENESIS_HASH;
    for (const r of rows) {
      if (r.prev_hash !== prev || riskHash(prev, r) !== r.hash)
        return { ok: false, records: rows.length, brokenAt: r.id };
      prev = r.hash;
    }
    return { ok: true, records: rows.length, brokenAt: null };
  }
}
