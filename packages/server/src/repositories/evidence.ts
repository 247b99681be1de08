import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AttemptTable, RiskRecordTable } from '../db/schema.js';
import type { Candidate } from './candidates.js';

/** A chain record as evidence listings read it. */
export type EvidenceRow = Pick<
  Selectable<RiskRecordTable>,
  'id' | 'kind' | 'risk' | 'image_key' | 'trigger_time' | 'detail' | 'sha256' | 'size'
>;

/** Evidence records of attempts and the attempt's monitor data. */
export class EvidenceRepository {
  constructor(private readonly db: Db) {}

  /** Records of an attempt whose kind is one of `kinds`, in chain order. */
  byKinds(attemptId: number, kinds: string[]): Promise<EvidenceRow[]> {
    return this.db
      .selectFrom('risk_records')
      .select(['id', 'kind', 'risk', 'image_key', 'trigger_time', 'detail', 'sha256', 'size'])
      .where('attempt_id', '=', attemptId)
      .where('kind', 'in', kinds)
      .orderBy('id')
      .execute();
  }

  /** Whether the attempt has a record of `kind` with this object key. */
  async hasKey(attemptId: number, kind: string, key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('risk_records')
      .select('id')
      .where('attempt_id', '=', attemptId)
      .where('kind', '=', kind)
      .where('image_key', '=', key)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Sets monitor data of an attempt. */
  async setMonitorData(
    attemptId: number,
    set: Pick<Updateable<AttemptTable>, 'first_picture_key' | 'signature_key' | 'microphone_id'>,
  ): Promise<void> {
    await this.db.updateTable('attempts').set(set).where('id', '=', attemptId).execute();
  }

  /** Records that the phone reported now; answers when it reported before (null: never). */
  async touchPhone(attemptId: number, now: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('attempts')
        .select('phone_seen_at')
        .where('id', '=', attemptId)
        .executeTakeFirst();
      await trx.updateTable('attempts').set({ phone_seen_at: now }).where('id', '=', attemptId).execute();
      return before?.phone_seen_at == null ? null : Number(before.phone_seen_at);
    });
  }

  /** Attempts whose phone last reported in (from, to]: phones that went quiet in that window. */
  async phonesLastSeenBetween(from: number, to: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('attempts')
      .select('id')
      .where('phone_seen_at', '>', from)
      .where('phone_seen_at', '<=', to)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The candidate an attempt belongs to. */
  candidateOf(attemptId: number): Promise<Candidate | undefined> {
    return this.db
      .selectFrom('candidates')
      .selectAll('candidates')
      .innerJoin('attempts', 'attempts.candidate_id', 'candidates.id')
      .where('attempts.id', '=', attemptId)
      .executeTakeFirst();
  }
}
