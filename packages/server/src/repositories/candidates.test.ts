import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { CandidateRepository } from './candidates.js';

const NOW = 1_750_000_000_000;

describe.each(await testedDialects())('the candidate lookup by token on %s', (dialect) => {
  let t: TestDb;
  let ids: number[];
  beforeEach(async () => {
    t = await openTestDb(dialect);
    const repo = new CandidateRepository(t.handle.db);
    ids = [];
    for (const phone of ['13800000001', '13800000002', '13800000003'])
      ids.push((await repo.create('86', phone, NOW)).id);
    await t.handle.db
      .insertInto('auth_tokens')
      .values([
        {
          token_hash: 'live-1',
          kind: 'candidate',
          subject_id: ids[0]!,
          created_at: NOW,
          expires_at: NOW + 1000,
          revoked_at: null,
        },
        {
          token_hash: 'live-2',
          kind: 'candidate',
          subject_id: ids[1]!,
          created_at: NOW,
          expires_at: NOW + 2000,
          revoked_at: null,
        },
        {
          token_hash: 'revoked',
          kind: 'candidate',
          subject_id: ids[2]!,
          created_at: NOW,
          expires_at: NOW + 1000,
          revoked_at: NOW,
        },
        {
          token_hash: 'staff',
          kind: 'staff',
          subject_id: ids[2]!,
          created_at: NOW,
          expires_at: NOW + 1000,
          revoked_at: null,
        },
      ])
      .execute();
  });
  afterEach(async () => t.drop());

  it("answers lookups made together each with its own candidate and the token's end, and none for a dead or foreign token", async () => {
    const repo = new CandidateRepository(t.handle.db);
    const found = await Promise.all([
      repo.findByTokenHash('live-2', NOW),
      repo.findByTokenHash('revoked', NOW),
      repo.findByTokenHash('live-1', NOW),
      repo.findByTokenHash('live-1', NOW + 1000), // expired at that moment
      repo.findByTokenHash('staff', NOW),
      repo.findByTokenHash('unknown', NOW),
    ]);
    expect(found.map((c) => c?.id)).toEqual([ids[1], undefined, ids[0], undefined, undefined, undefined]);
    expect(found[0]).toMatchObject({ phone: '13800000002', area_code: '86', created_at: NOW });
    // The token's end comes along (the per-process cache keeps nothing past it), as a number on both databases.
    expect(found[0]?.token_expires_at).toBe(NOW + 2000);
    expect(found[2]?.token_expires_at).toBe(NOW + 1000);
  });
});
