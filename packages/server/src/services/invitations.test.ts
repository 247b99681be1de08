/**
 * Invitations are made in one place (invitations.ts). Its rules on both databases: an invited phone keeps its
 * invitation as it is (a revoked one stays revoked, its extra time unchanged), an empty calling code is the
 * default one, a phone twice in a call is invited once, and a staff member's preview invitation is made once and
 * then pointed at each new preview, its preview attempts gone. Then each path that invites (the editor's invite,
 * a preview, the bulk job, the demo seed) is followed over HTTP to see that it goes through the service.
 */
import { api, DEFAULT_AREA_CODE, type PreviewData, type StartedJobData } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/database.js';
import { InvitationRepository } from '../repositories/invitations.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { bareExam } from '../test/exams.js';
import { waitForJob } from '../test/jobs.js';
import { InvitationService } from './invitations.js';

const NOW = Date.UTC(2026, 10, 21, 2, 0, 0);

/** An exam to invite to, opening tomorrow; answers its id. */
const examOf = (db: Db) => bareExam(db, { start_at: NOW + 86_400_000, end_at: NOW + 2 * 86_400_000 }, { now: NOW });

/** A preview version of the exam; answers its id. */
async function previewVersionOf(db: Db, examId: number, number: number): Promise<number> {
  const row = await db
    .insertInto('exam_versions')
    .values({ exam_id: examId, number, definition: '{}', published_at: NOW, published_by: null, preview: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe.each(await testedDialects())('making invitations on %s', (dialect) => {
  let t: TestDb;
  let db: Db;
  const invitations = new InvitationService({ clock: () => NOW });
  const invitation = (id: number) =>
    db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await openTestDb(dialect);
    db = t.handle.db;
  });
  afterAll(async () => t.drop());

  it('invites new phones, answers each invitation once, and leaves one made already as it is', async () => {
    const examId = await examOf(db);
    const first = await invitations.invite(
      db,
      examId,
      [
        { area_code: '', phone: '13700000001' },
        { area_code: '86', phone: '13700000001' },
        { area_code: '852', phone: '51234567' },
      ],
      { extraMinutes: 15 },
    );
    expect(first).toEqual([
      { phone: '13700000001', area_code: DEFAULT_AREA_CODE, anid: expect.any(Number), created: true },
      { phone: '51234567', area_code: '852', anid: expect.any(Number), created: true },
    ]);
    expect(await invitation(first[0]!.anid)).toMatchObject({ extra_minutes: 15, created_at: NOW, preview: 0 });

    // Invited again with other extra time, and after a revocation: the same invitations, unchanged.
    await new InvitationRepository(db).revoke(examId, [first[1]!.anid], '重复报名', NOW);
    const again = await invitations.invite(db, examId, [
      { area_code: '86', phone: '13700000001' },
      { area_code: '852', phone: '51234567' },
    ]);
    expect(again.map((l) => [l.anid, l.created])).toEqual([
      [first[0]!.anid, false],
      [first[1]!.anid, false],
    ]);
    expect(await invitation(first[0]!.anid)).toMatchObject({ extra_minutes: 15 });
    expect((await invitation(first[1]!.anid)).revoked_at).not.toBeNull();
  });

  it('invites a batch in a few statements, counting the new and those invited already', async () => {
    const examId = await examOf(db);
    await invitations.invite(db, examId, [{ area_code: '86', phone: '13700000010' }]);
    const made = await invitations.inviteMany(db, examId, [
      { area_code: '86', phone: '13700000010' },
      { area_code: '', phone: '13700000011' },
      { area_code: '86', phone: '13700000011' },
      { area_code: '86', phone: '13700000012' },
    ]);
    // The phone twice in the batch is new once and counted once as invited already.
    expect(made).toEqual({ created: 2, existing: 2 });
    const rows = await db
      .selectFrom('invitations')
      .select(['area_code', 'phone'])
      .where('exam_id', '=', examId)
      .execute();
    expect(rows.map((r) => `${r.area_code} ${r.phone}`).sort()).toEqual([
      '86 13700000010',
      '86 13700000011',
      '86 13700000012',
    ]);
  });

  it("makes a staff member's preview invitation once, then points it at each new preview and clears its attempts", async () => {
    const examId = await examOf(db);
    const to = { area_code: 'preview', phone: 'staff-1' };
    const v1 = await previewVersionOf(db, examId, 1);
    const anid = await invitations.preview(db, examId, to, v1);
    expect(await invitation(anid)).toMatchObject({ preview: 1, version_id: v1, extra_minutes: 0, created_at: NOW });
    const candidate = await db
      .insertInto('candidates')
      .values({ area_code: to.area_code, phone: to.phone, name: null, created_at: NOW, last_login_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('attempts')
      .values({
        exam_id: examId,
        candidate_id: candidate.id,
        invitation_id: anid,
        mode: 0,
        phase: 1,
        created_at: NOW,
        version_id: v1,
        preview: 1,
      })
      .execute();

    const v2 = await previewVersionOf(db, examId, 2);
    expect(await invitations.preview(db, examId, to, v2)).toBe(anid);
    expect(await invitation(anid)).toMatchObject({ version_id: v2 });
    const left = await db.selectFrom('attempts').select('id').where('invitation_id', '=', anid).execute();
    expect(left).toEqual([]);
  });
});

describe('every path that invites goes through the service', () => {
  let t: TestApp;
  let admin = '';

  const call = async (c: (typeof api)[keyof typeof api], payload: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: c.method,
      url: `/api${c.path}`,
      headers: { authorization: `Bearer ${admin}` },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return body(res).data;
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    admin = await t.loginStaff('admin');
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  it('the demo seed, the editor, a preview and the bulk job', async () => {
    const invite = vi.spyOn(InvitationService.prototype, 'invite');
    const inviteMany = vi.spyOn(InvitationService.prototype, 'inviteMany');
    const preview = vi.spyOn(InvitationService.prototype, 'preview');
    const { examId, anid } = await t.seed('13700000100');
    expect(invite).toHaveBeenCalledTimes(1);
    expect(await invite.mock.results[0]!.value).toEqual([expect.objectContaining({ anid, created: true })]);

    await call(api.examEditorInvite, { exam_id: examId, phones: [{ phone: '13700000101' }], send_sms: false });
    expect(invite).toHaveBeenCalledTimes(2);
    expect(invite.mock.calls[1]![1]).toBe(examId);

    const p = (await call(api.examEditorPreview, { exam_id: examId })) as PreviewData;
    expect(preview).toHaveBeenCalledTimes(1);
    expect(await preview.mock.results[0]!.value).toBe(p.anid);

    const started = (await call(api.invitationsBulk, {
      exam_id: examId,
      phones: [{ area_code: '86', phone: '13700000102' }],
      send_sms: false,
    })) as StartedJobData;
    expect((await waitForJob(t, admin, started.job_id)).state).toBe('done');
    expect(inviteMany).toHaveBeenCalledTimes(1);
    expect(await inviteMany.mock.results[0]!.value).toEqual({ created: 1, existing: 0 });
  });
});
