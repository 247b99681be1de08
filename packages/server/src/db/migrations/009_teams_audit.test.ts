import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDb, testedDialects } from '../../test/db.js';
import { migrate } from '../database.js';

describe.each(await testedDialects())('migration 009 (teams and audit) on %s', (dialect) => {
  it("splits earlier audit entries' target into object kind and id, and names their actor", async () => {
    const test = await openTestDb(dialect, '008_question_kind');
    try {
      // Rows as they stood before, written with the columns of that time.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = test.handle.db as unknown as Kysely<any>;
      const now = Date.UTC(2026, 0, 5);
      const staff = await db
        .insertInto('staff')
        .values({
          area_code: '86',
          phone: '13900000000',
          name: 'Ada',
          role: 'admin',
          password_hash: 'x',
          disabled: 0,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const entry = (actor_id: number | null, action: string, target: string) => ({
        actor_kind: actor_id === null ? 'system' : 'staff',
        actor_id,
        action,
        target,
        detail: '',
        created_at: now,
      });
      await db
        .insertInto('audit_log')
        .values([
          entry(null, 'staff.bootstrap', `staff:${staff.id}`),
          entry(staff.id, 'proctor.decide', 'risk_record:12'),
          entry(staff.id, 'odd', 'no-id'),
        ])
        .execute();
      await migrate(test.handle);
      const rows = await test.handle.db
        .selectFrom('audit_log')
        .select(['action', 'actor_name', 'object_kind', 'object_id', 'before', 'after'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        {
          action: 'staff.bootstrap',
          actor_name: '',
          object_kind: 'staff',
          object_id: staff.id,
          before: null,
          after: null,
        },
        {
          action: 'proctor.decide',
          actor_name: 'Ada',
          object_kind: 'record',
          object_id: 12,
          before: null,
          after: null,
        },
        { action: 'odd', actor_name: 'Ada', object_kind: 'no-id', object_id: null, before: null, after: null },
      ]);
      // Existing accounts and exams belong to no team.
      const account = await test.handle.db.selectFrom('staff').select('team_id').executeTakeFirstOrThrow();
      expect(account.team_id).toBeNull();
    } finally {
      await test.drop();
    }
  });
});
