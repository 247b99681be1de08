/**
 * The periodic sweep of staff login tries: rows whose window ended more than a day ago go, in batches smaller than
 * the rows to remove; a window still running, or ended lately, stays and keeps counting. On both dialects.
 */
import { STAFF_LOGIN_RULES } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';

const HOUR = 3_600_000;

describe.each(await testedDialects())('the sweep of staff login tries on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const phones = async () =>
    (await t.db.handle.db.selectFrom('staff_login_tries').select('phone').orderBy('phone').execute()).map(
      (r) => r.phone,
    );

  it('removes the windows that ended long ago, in batches, and keeps the others counting', async () => {
    const now = t.now();
    const old = Array.from({ length: 7 }, (_, i) => ({
      phone: `1300000${String(i).padStart(4, '0')}`,
      tries: STAFF_LOGIN_RULES.maxFailures,
      window_ends: now - 25 * HOUR - i * 1000,
    }));
    const kept = [
      // Ended an hour ago: kept a while yet.
      { phone: '13100000001', tries: 2, window_ends: now - HOUR },
      // Still running, locked: the sweep must not lift a lock.
      { phone: '13100000002', tries: STAFF_LOGIN_RULES.maxFailures, window_ends: now + 10 * 60_000 },
    ];
    await t.db.handle.db
      .insertInto('staff_login_tries')
      .values([...old, ...kept])
      .execute();

    expect(await t.services.staffLogin.sweepLoginTries(3)).toBe(old.length);
    expect(await phones()).toEqual(kept.map((k) => k.phone));
    expect(await t.services.staffLogin.sweepLoginTries(3)).toBe(0);
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { phone: '13100000002', password: 'whatever' },
    });
    expect(locked.statusCode, locked.body).toBe(429);

    // A day on, the hour-old window goes too; the locked one, ended by then as well, is kept a day after it ended.
    t.advance(24 * HOUR);
    expect(await t.services.staffLogin.sweepLoginTries()).toBe(1);
    expect(await phones()).toEqual(['13100000002']);
  });
});
