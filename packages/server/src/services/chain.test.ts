import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, riskHash, walkChain, type ChainedFields } from './chain.js';

/** A chain of `n` records linked the way the risk service appends them. */
function chainOf(n: number) {
  const rows: (ChainedFields & { id: number; prev_hash: string; hash: string })[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= n; i++) {
    const fields: ChainedFields = {
      attempt_id: 7,
      risk: i % 2,
      category: 0,
      trigger_time: 1_700_000_000_000 + i,
      detail: `record ${i}`,
      image_key: null,
      kind: i % 2 ? 'risk' : 'frame',
      sha256: i % 2 ? null : 'ab'.repeat(32),
    };
    const hash = riskHash(prev, fields);
    rows.push({ ...fields, id: i, prev_hash: prev, hash });
    prev = hash;
  }
  return rows;
}

describe('walkChain', () => {
  it('finds no fault in an intact chain', () => {
    expect(walkChain(chainOf(4)).map((l) => l.fault)).toEqual([null, null, null, null]);
  });

  it('tells a record whose fields changed apart, without blaming the records after it', () => {
    const rows = chainOf(4);
    rows[1] = { ...rows[1]!, detail: 'edited afterwards' };
    expect(walkChain(rows).map((l) => l.fault)).toEqual([null, 'hash', null, null]);
  });

  it('tells a removed record by the broken link of the one after it', () => {
    const rows = chainOf(4);
    rows.splice(2, 1);
    expect(walkChain(rows).map((l) => [l.record.id, l.fault])).toEqual([
      [1, null],
      [2, null],
      [4, 'link'],
    ]);
  });

  it('covers the kind and file digest of evidence records', () => {
    const rows = chainOf(2);
    rows[1] = { ...rows[1]!, sha256: 'cd'.repeat(32) };
    expect(walkChain(rows)[1]!.fault).toBe('hash');
  });
});
