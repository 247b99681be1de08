import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { RiskRecordTable } from '../db/schema.js';
import type { AttemptRow } from '../repositories/attempts.js';
import { checkKey } from '../storage/objectStore.js';

/**
 * An attempt's hash chain: every risk event, device check and piece of evidence is a record whose hash covers
 * its fields and the hash of the record before, so a record changed, removed or inserted afterwards shows.
 */

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

/** What is wrong with one record of a chain: it does not link to the one before, or its fields changed. */
export type ChainFault = 'link' | 'hash';

/** A stored chain record, as the walker reads it. */
type StoredLink = ChainedFields & { id: number; prev_hash: string; hash: string };

/**
 * Walks an attempt's records in order and tells, for each, whether it links to the record before it and
 * whether its fields still give its hash. A broken record does not hide the ones after it: each is judged
 * against the hash its predecessor carries.
 */
export function walkChain<R extends StoredLink>(rows: readonly R[]): { record: R; fault: ChainFault | null }[] {
  let prev = GENESIS_HASH;
  return rows.map((record) => {
    const fault: ChainFault | null =
      record.prev_hash !== prev ? 'link' : riskHash(record.prev_hash, record) !== record.hash ? 'hash' : null;
    prev = record.hash;
    return { record, fault };
  });
}

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
