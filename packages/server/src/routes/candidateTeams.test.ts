/**
 * A candidate record is seen and changed only by the staff of a team linked to it, or an admin: another team
 * adding the same phone (by hand or in a file) neither reveals nor claims it, views show only what the reader
 * reaches, and a phone change that could hand a shared person's account to someone else needs an admin.
 */
import {
  api,
  type CandidateImportPreviewData,
  type CandidateImportResult,
  type CandidateListData,
  type CandidateView,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { authoredExam } from '../test/callWorld.js';
import { twoTeamsApp } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

describe.each(await testedDialects())("another team's candidates on %s", (dialect) => {
  const s = twoTeamsApp(dialect);
  const { send, upload } = s;

  /** The candidate's stored row and team links, read past the API. */
  async function stored(phone: string) {
    const row = await s.t.db.handle.db
      .selectFrom('candidates')
      .selectAll()
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    const links = await s.t.db.handle.db
      .selectFrom('candidate_team')
      .select('team_id')
      .where('candidate_id', '=', row.id)
      .orderBy('team_id')
      .execute();
    return { row, teams: links.map((l) => l.team_id) };
  }

  /** A candidate of team A with a full profile, values another team must never be shown. */
  async function victim(phone: string) {
    const made = await send<CandidateView>(
      api.candidateCreate,
      {
        body: {
          phone,
          name: 'Victim Name',
          email: `victim-${phone}@example.com`,
          school: 'Victim School',
          major: 'Victim Major',
          graduation_year: 2026,
          custom: { note: 'victim note' },
        },
      },
      s.authorA,
    );
    expect(made.http, made.msg).toBe(200);
    return made.data;
  }

  /** True when an answer carries any of the victim's values. */
  const leaks = (raw: string, v: CandidateView) =>
    ['Victim Name', v.email, 'Victim School', 'Victim Major', 'victim note', `"id":${v.id}`, `"team_ids"`].some(
      (text) => raw.includes(text),
    );

  it("refuses another team's author adding a phone team A's candidate has: nothing revealed, written or linked", async () => {
    const v = await victim('13870000001');
    const before = await stored('13870000001');
    const claim = await send<CandidateView>(
      api.candidateCreate,
      { body: { phone: '13870000001', name: 'B name', school: 'B school', degree: 'master' } },
      s.authorB,
    );
    expect([claim.http, claim.code]).toEqual([409, 'candidate_in_other_team']);
    expect(claim.msg).toMatch(/admin/);
    expect(leaks(claim.raw, v), claim.raw).toBe(false);
    const after = await stored('13870000001');
    expect(after).toEqual(before);
    expect(after.teams).toEqual([s.teamA]);
    // The next step of the attack, editing by id, finds nothing to reach.
    const edit = await send(
      api.candidateUpdate,
      { body: { candidate_id: v.id, phone: '13870000009', name: 'B name' } },
      s.authorB,
    );
    expect([edit.http, edit.code]).toEqual([404, 'not_found']);
    expect((await send(api.candidateDetail, { query: { candidate_id: v.id } }, s.authorB)).http).toBe(404);
    expect((await stored('13870000001')).row.phone).toBe('13870000001');

    // A person linked to no team (who logged in by themselves) may be added, and is then B's.
    await s.t.loginCandidate('13870000002');
    const free = await send<CandidateView>(
      api.candidateCreate,
      { body: { phone: '13870000002', name: 'Free Person' } },
      s.authorB,
    );
    expect(free.http, free.msg).toBe(200);
    expect(free.data).toMatchObject({ name: 'Free Person', team_ids: [s.teamB] });

    // An admin may add anyone to any team.
    const byAdmin = await send<CandidateView>(
      api.candidateCreate,
      { body: { phone: '13870000001', name: 'Victim Name', team_id: s.teamB } },
      s.admin,
    );
    expect(byAdmin.http, byAdmin.msg).toBe(200);
    expect(byAdmin.data).toMatchObject({ id: v.id, team_ids: [s.teamA, s.teamB] });
  });

  it('shows each team only its own link and the invitations to exams it can see', async () => {
    const v = await victim('13870000011');
    await send(api.candidateCreate, { body: { phone: '13870000011', name: 'x', team_id: s.teamB } }, s.admin);
    const examA = (await authoredExam(s.t, s.authorA)).examId;
    const examB = (await authoredExam(s.t, s.authorB)).examId;
    await s.t.invite(examA, '13870000011');
    await s.t.invite(examB, '13870000011');

    for (const [token, team] of [
      [s.authorA, s.teamA],
      [s.authorB, s.teamB],
    ] as const) {
      const detail = await send<CandidateView>(api.candidateDetail, { query: { candidate_id: v.id } }, token);
      expect(detail.http, detail.msg).toBe(200);
      expect([detail.data.team_ids, detail.data.invitations]).toEqual([[team], 1]);
      const list = await send<CandidateListData>(api.candidateList, { query: { q: '13870000011' } }, token);
      expect(list.data.list.map((c) => [c.team_ids, c.invitations])).toEqual([[[team], 1]]);
    }
    const adminView = await send<CandidateView>(api.candidateDetail, { query: { candidate_id: v.id } }, s.admin);
    expect([adminView.data.team_ids, adminView.data.invitations]).toEqual([[s.teamA, s.teamB], 2]);

    // Adding a candidate one's team already shares answers the same narrowed view.
    const again = await send<CandidateView>(
      api.candidateCreate,
      { body: { phone: '13870000011', name: 'Victim Name' } },
      s.authorB,
    );
    expect(again.http, again.msg).toBe(200);
    expect([again.data.team_ids, again.data.invitations]).toEqual([[s.teamB], 1]);
    // A field edit answers the same narrowed view.
    const edited = await send<CandidateView>(
      api.candidateUpdate,
      { body: { candidate_id: v.id, phone: '13870000011', name: 'Victim Name', school: 'Edited by A' } },
      s.authorA,
    );
    expect([edited.http, edited.data.team_ids, edited.data.invitations]).toEqual([200, [s.teamA], 1]);
  });

  it("needs an admin to change the phone of a candidate another team shares; field edits stay the team's", async () => {
    const v = await victim('13870000021');
    await send(api.candidateCreate, { body: { phone: '13870000021', name: 'x', team_id: s.teamB } }, s.admin);
    const move = await send(
      api.candidateUpdate,
      { body: { candidate_id: v.id, phone: '13870000029', name: 'Victim Name' } },
      s.authorB,
    );
    expect([move.http, move.code]).toEqual([409, 'candidate_phone_shared']);
    expect(move.msg).toMatch(/admin/);
    expect((await stored('13870000021')).row.phone).toBe('13870000021');
    const fields = await send<CandidateView>(
      api.candidateUpdate,
      { body: { candidate_id: v.id, phone: '13870000021', name: 'Victim Name', major: 'Edited by B' } },
      s.authorB,
    );
    expect([fields.http, fields.data.major]).toEqual([200, 'Edited by B']);
    const byAdmin = await send<CandidateView>(
      api.candidateUpdate,
      { body: { candidate_id: v.id, phone: '13870000029', name: 'Victim Name' } },
      s.admin,
    );
    expect([byAdmin.http, byAdmin.data.phone]).toEqual([200, '13870000029']);
  });

  it("ends the candidate's sessions when the phone changes, so no old session shows the new phone", async () => {
    const shared = await victim('13870000031');
    await send(api.candidateCreate, { body: { phone: '13870000031', name: 'x', team_id: s.teamB } }, s.admin);
    const sharedSession = await s.t.loginCandidate('13870000031');
    const own = await victim('13870000032');
    const ownSession = await s.t.loginCandidate('13870000032');
    for (const token of [sharedSession, ownSession]) {
      expect((await s.t.app.inject(`/api/user/get-info?auth=${token}`)).statusCode).toBe(200);
    }

    const byAdmin = await send(
      api.candidateUpdate,
      { body: { candidate_id: shared.id, phone: '13870000039', name: 'Victim Name' } },
      s.admin,
    );
    expect(byAdmin.http, byAdmin.msg).toBe(200);
    // Only team A has this one, so its author may change the phone; the sessions end just the same.
    const byTeam = await send(
      api.candidateUpdate,
      { body: { candidate_id: own.id, phone: '13870000038', name: 'Victim Name' } },
      s.authorA,
    );
    expect(byTeam.http, byTeam.msg).toBe(200);
    for (const token of [sharedSession, ownSession]) {
      const info = await s.t.app.inject(`/api/user/get-info?auth=${token}`);
      expect([info.statusCode, body(info).code], info.body).toEqual([401, 'not_logged_in']);
    }
    // The new phone logs in as the same candidate.
    const fresh = await s.t.loginCandidate('13870000039');
    const info = body<{ id: number; phone: string }>(await s.t.app.inject(`/api/user/get-info?auth=${fresh}`)).data;
    expect(info).toMatchObject({ id: shared.id, phone: '13870000039' });
    // A field edit leaves the sessions alone.
    const edit = await send(
      api.candidateUpdate,
      { body: { candidate_id: shared.id, phone: '13870000039', name: 'Victim Name', school: 'Other' } },
      s.admin,
    );
    expect(edit.http, edit.msg).toBe(200);
    expect((await s.t.app.inject(`/api/user/get-info?auth=${fresh}`)).statusCode).toBe(200);
  });

  it('imports no row whose phone only another team has: a located problem, never linked or updated', async () => {
    const v = await victim('13870000041');
    const before = await stored('13870000041');
    await s.t.loginCandidate('13870000043');
    const csv = Buffer.from(
      ['手机号,姓名,学校', '13870000041,B name,B school', '13870000042,New Person,', '13870000043,Free Person,'].join(
        '\n',
      ),
    );
    const preview = await upload<CandidateImportPreviewData>(api.candidateImportPreview, {}, 'b.csv', csv, s.authorB);
    expect(preview.http, preview.msg).toBe(200);
    expect(leaks(preview.raw, v), preview.raw).toBe(false);
    expect(preview.data.rows.map((r) => [r.phone, r.action, r.candidate_id])).toEqual([
      ['13870000041', 'invalid', null],
      ['13870000042', 'create', null],
      ['13870000043', 'create', null],
    ]);
    const problems = preview.data.problems.filter((p) => p.row === 2);
    expect(problems.map((p) => [p.row, p.column, p.code, p.severity])).toEqual([
      [2, '手机号', 'candidate_in_other_team', 'error'],
    ]);
    expect(problems[0]!.message).toMatch(/^row 2, column 手机号: .*another team.*admin/);
    expect(problems[0]!.message_zh).toMatch(/^第 2 行“手机号”列：.*其他团队.*管理员/);
    expect(preview.data.counts).toMatchObject({ create: 2, update: 0, invalid: 1, errors: 1 });

    const refused = await upload(api.candidateImport, { sha256: preview.data.sha256 }, 'b.csv', csv, s.authorB);
    expect([refused.http, refused.code]).toEqual([422, 'import_has_errors']);
    expect(refused.msg).toMatch(/another team/);

    const started = await upload<{ job_id: number }>(
      api.candidateImport,
      { sha256: preview.data.sha256, only_valid: '1' },
      'b.csv',
      csv,
      s.authorB,
    );
    expect(started.http, started.msg).toBe(200);
    const job = await waitForJob(s.t, s.authorB, started.data.job_id, 30_000);
    expect(job.state, JSON.stringify(job.error)).toBe('done');
    expect(job.result as CandidateImportResult).toEqual({ created: 2, updated: 0, skipped: 1, total: 2 });
    expect(await stored('13870000041')).toEqual(before);
    expect((await stored('13870000042')).teams).toEqual([s.teamB]);
    expect((await stored('13870000043')).teams).toEqual([s.teamB]);

    // An admin's file links the same person to the team named.
    const adminPreview = await upload<CandidateImportPreviewData>(
      api.candidateImportPreview,
      { team_id: String(s.teamB) },
      'b.csv',
      csv,
      s.admin,
    );
    expect(adminPreview.data.rows[0]).toMatchObject({ phone: '13870000041', action: 'update', candidate_id: v.id });
  });
});
