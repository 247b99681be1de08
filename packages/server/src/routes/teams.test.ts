/** Teams, proctors' and graders' exam assignments, and the console home's counts. */
import {
  api,
  QuestionType,
  type ExamStaffListData,
  type HomeData,
  type TeamListData,
  type TeamView,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { sendCall, type CallWorld, worldApp } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';

describe.each(await testedDialects())('teams, assignments and the console home on %s', (dialect) => {
  const w = worldApp(dialect);

  const teams = async () => body<TeamListData>(await sendCall(w.t, api.teamList, {}, w.tokens.admin)).data.list;

  it('creates, renames and lists teams with their member and exam counts; names are unique', async () => {
    const created = await sendCall(w.t, api.teamCreate, { body: { name: '  Platform  ' } }, w.tokens.admin);
    expect(created.statusCode, created.body).toBe(200);
    const team = body<TeamView>(created).data;
    expect(team).toMatchObject({ name: 'Platform', member_count: 0, exam_count: 0 });

    const dup = await sendCall(w.t, api.teamCreate, { body: { name: 'Platform' } }, w.tokens.admin);
    expect([dup.statusCode, body(dup).code]).toEqual([409, 'conflict']);
    const twice = await Promise.all([
      sendCall(w.t, api.teamCreate, { body: { name: 'Twins' } }, w.tokens.admin),
      sendCall(w.t, api.teamCreate, { body: { name: 'Twins' } }, w.tokens.admin),
    ]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([200, 409]);

    const renamed = await sendCall(w.t, api.teamUpdate, { body: { id: team.id, name: 'Platform 2' } }, w.tokens.admin);
    expect(body<TeamView>(renamed).data.name).toBe('Platform 2');
    const taken = await sendCall(w.t, api.teamUpdate, { body: { id: team.id, name: 'Twins' } }, w.tokens.admin);
    expect([taken.statusCode, body(taken).code]).toEqual([409, 'conflict']);
    const missing = await sendCall(w.t, api.teamUpdate, { body: { id: 999_999, name: 'X' } }, w.tokens.admin);
    expect([missing.statusCode, body(missing).code]).toEqual([404, 'not_found']);

    // Team A: Author A, Proctor A, Grader A; the demo exam.
    const a = (await teams()).find((x) => x.id === w.teamId)!;
    expect(a).toMatchObject({ member_count: 3, exam_count: 1 });
    expect((await teams()).map((x) => x.name)).toContain('Platform 2');

    for (const call of [api.teamList, api.teamCreate] as const) {
      const res = await sendCall(w.t, call, { body: { name: 'Mine' } }, w.tokens.authorA);
      expect([res.statusCode, body(res).code]).toEqual([403, 'forbidden']);
    }
  });

  it('assigns proctors and graders per exam: the exam appears to them, leaves when unassigned', async () => {
    const proctor = await w.newStaff('proctor', w.teamId);
    const phone = (
      await w.t.db.handle.db.selectFrom('staff').select('phone').where('id', '=', proctor).executeTakeFirstOrThrow()
    ).phone;
    const token = (await w.t.services.staffLogin.login(phone, w.password, { ip: '127.0.0.1' })).token;
    const grid = () => sendCall(w.t, api.proctorGrid, { query: { exam_id: w.examId } }, token);
    expect((await grid()).statusCode).toBe(404);

    const assign = (body_: Record<string, unknown>, who = w.tokens.authorA) =>
      sendCall(w.t, api.examStaffAssign, { body: { exam_id: w.examId, ...body_ } }, who);
    const res = await assign({ staff_id: proctor, role: 'proctor' });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).data).toMatchObject({ exam_id: w.examId, staff_id: proctor, role: 'proctor', disabled: false });
    expect((await grid()).statusCode).toBe(200);
    const exams = body<{ list: { id: number }[] }>(await sendCall(w.t, api.proctorExams, {}, token)).data.list;
    expect(exams.map((e) => e.id)).toEqual([w.examId]);

    // Twice is a conflict; a proctor is not assigned as a grader; another team's member is not reached.
    expect(body(await assign({ staff_id: proctor, role: 'proctor' })).code).toBe('conflict');
    expect(body(await assign({ staff_id: proctor, role: 'grader' })).code).toBe('validation_error');
    const foreign = await w.newStaff('proctor', w.otherTeamId);
    const refused = await assign({ staff_id: foreign, role: 'proctor' });
    expect([refused.statusCode, body(refused).msg]).toEqual([404, `no such staff ${foreign}`]);
    // An admin assigns anyone.
    expect((await assign({ staff_id: foreign, role: 'proctor' }, w.tokens.admin)).statusCode).toBe(200);

    const list = body<ExamStaffListData>(
      await sendCall(w.t, api.examStaffList, { query: { exam_id: w.examId } }, w.tokens.authorA),
    ).data;
    expect(list.list.filter((a) => a.role === 'proctor').map((a) => a.staff_id)).toEqual(
      expect.arrayContaining([w.ids.proctorA, proctor, foreign]),
    );
    // Author A may assign team A's proctors and graders only.
    expect(list.assignable.map((m) => m.staff_id)).toContain(proctor);
    expect(list.assignable.map((m) => m.staff_id)).not.toContain(foreign);

    const unassign = (staffId: number) =>
      sendCall(
        w.t,
        api.examStaffUnassign,
        { body: { exam_id: w.examId, staff_id: staffId, role: 'proctor' } },
        w.tokens.authorA,
      );
    expect((await unassign(proctor)).statusCode).toBe(200);
    expect((await grid()).statusCode).toBe(404);
    expect((await unassign(proctor)).statusCode).toBe(404);
    // A proctor may read the assignments of their exam but not change them.
    const byProctor = await sendCall(
      w.t,
      api.examStaffAssign,
      { body: { exam_id: w.examId, staff_id: proctor, role: 'proctor' } },
      w.tokens.proctorA,
    );
    expect([byProctor.statusCode, body(byProctor).code]).toEqual([403, 'forbidden']);
  });

  it('shows on the home what needs attention, within the exams the caller may see', async () => {
    // A finished attempt with one answer to a Q&A question and one to a choice question: one waits for a grader.
    const done = await w.newAttempt();
    const questions = await w.t.db.handle.db
      .selectFrom('questions')
      .select(['id', 'type'])
      .where('exam_id', '=', w.examId)
      .execute();
    const qa = questions.find((q) => q.type === QuestionType.qa);
    const single = questions.find((q) => q.type === QuestionType.single);
    expect(qa && single, 'the demo exam has a Q&A and a single-choice question').toBeTruthy();
    const answer = (questionId: number) =>
      w.t.db.handle.db
        .insertInto('answers')
        .values({
          attempt_id: done.attemptId,
          question_id: questionId,
          value: '{}',
          version: 1,
          seq: 1,
          saved_at: w.t.now(),
        })
        .execute();
    await answer(qa!.id);
    await answer(single!.id);
    const finished = await w.t.app.inject({
      method: 'POST',
      url: `/api/monitor/finish-exam?auth=${done.token}`,
      payload: { exam_id: w.examId },
    });
    expect(finished.statusCode, finished.body).toBe(200);

    const home = async (who: keyof CallWorld['tokens']) => {
      const res = await sendCall(w.t, api.consoleHome, {}, w.tokens[who]);
      expect(res.statusCode, res.body).toBe(200);
      return body<HomeData>(res).data;
    };
    const openFlags = Number(
      (
        await w.t.db.handle.db
          .selectFrom('risk_records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('kind', '=', 'risk')
          .where('decision', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(openFlags).toBeGreaterThan(0);

    for (const who of ['admin', 'authorA', 'proctorA'] as const) {
      const h = await home(who);
      expect(
        h.open_exams.map((e) => e.id),
        who,
      ).toEqual([w.examId]);
      expect(h.open_exams[0]!.running, who).toBeGreaterThanOrEqual(1);
      expect(h.pending_flags, who).toBe(openFlags);
      expect(h.ungraded_answers, who).toBe(1);
      expect(h.server_time).toBe(w.t.now());
    }
    // Team B's author and an unassigned proctor see none of it.
    for (const who of ['authorB', 'proctorX'] as const) {
      expect(await home(who), who).toMatchObject({ open_exams: [], pending_flags: 0, ungraded_answers: 0 });
    }
    // A decided flag no longer waits.
    await sendCall(
      w.t,
      api.proctorDecide,
      { body: { record_id: w.recordId, decision: 'dismissed', note: '' } },
      w.tokens.proctorA,
    );
    expect((await home('admin')).pending_flags).toBe(openFlags - 1);
    // Once the exam closes it is no longer open (closed here by its row: the demo exam runs for days, staff tokens don't).
    await w.t.db.handle.db.updateTable('exams').set({ end_at: w.t.now() }).where('id', '=', w.examId).execute();
    expect((await home('admin')).open_exams).toEqual([]);
  });
});
