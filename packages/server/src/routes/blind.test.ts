/**
 * Blind marking over the whole route list: with team A's exam marked blind and an answer still to mark, every
 * call a grader may make is made by a grader of team A assigned to the exam, and no answer or file may hold a
 * name, phone, e-mail or school of the exam's candidates. A call the grader is refused (403 `blind_marking`,
 * or any other refusal) reveals nothing either; what matters is that no identity leaves.
 */
import { api, roleHas, type CallDef, type CallName } from '@examhall/contract';
import { unzipSync } from 'fflate';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { freshPhone, inject, sendCall, type CallInput, worldApp } from '../test/callWorld.js';
import { qaQuestion, similarPair } from '../test/teamResources.js';
import { ACCESS_FIXTURES } from '../test/accessFixtures.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

/** Every staff call a grader's role may make. */
const graderCalls = (Object.entries(api) as [CallName, CallDef][]).filter(
  ([, c]) => c.auth === 'staff' && c.permission !== undefined && roleHas('grader', c.permission),
);

/** Inputs of the team-free calls a grader may make (lists the service filters by what the grader may see). */
const LIST_INPUTS: Partial<Record<CallName, CallInput>> = {
  gradingExams: {},
  consoleHome: {},
  examEditorList: {},
  jobList: {},
};

/** The text of an answer, with the entries of a zip (an xlsx file) read too. */
function textOf(res: LightMyRequestResponse): string {
  const bytes = res.rawPayload;
  if (bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const entries = unzipSync(new Uint8Array(bytes));
    return Object.values(entries)
      .map((e) => Buffer.from(e).toString('utf8'))
      .join('\n');
  }
  return bytes.toString('utf8');
}

describe.each(await testedDialects())('blind marking on %s', (dialect) => {
  const w = worldApp(dialect);
  let grader: string;
  /** The values that name a candidate of the exam. */
  let identities: string[];

  beforeAll(async () => {
    const phone = freshPhone('138');
    const made = await inject(w.t, w.tokens.admin, 'POST', '/admin/staff', {
      phone,
      area_code: '86',
      name: 'Blind grader',
      role: 'grader',
      password: w.password,
      team_id: w.teamId,
    });
    await w.assign(made.id as number, 'grader');
    grader = (await w.t.services.staffLogin.login(phone, w.password, { ip: '127.0.0.1' })).token;
    // An answer waiting for a mark keeps the marking unfinished, so identities stay hidden.
    const a = await w.newAttempt();
    const res = await w.t.app.inject({
      method: 'POST',
      url: `/api/answer/answer?auth=${a.token}`,
      payload: {
        exam_id: w.examId,
        subject_id: await qaQuestion(w),
        answer: { kind: 'text', html: '<p>An answer to mark.</p>', files: [] },
        client_id: 'blind-answer',
        seq: 1,
        changed_at: w.t.now(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await w.t.services.attempts.finish(a.attemptId, 'submit');
    // A similarity pair names two candidates; an invitation by the editor leaves a text naming a phone.
    await similarPair(w);
    const invited = await inject(w.t, w.tokens.admin, 'POST', '/admin/exam/invite', {
      exam_id: w.examId,
      phones: [{ phone: freshPhone('138') }],
    });
    if (typeof invited.job_id === 'number') await waitForJob(w.t, w.tokens.admin, invited.job_id);
    await inject(w.t, w.tokens.admin, 'POST', '/admin/grading/settings', {
      exam_id: w.examId,
      blind: true,
      double_marking: false,
      margin: 0,
    });
    // Every candidate of the exam gets a name, an e-mail and a school no other text in an answer could hold.
    const invitations = await w.t.db.handle.db
      .selectFrom('invitations')
      .select('phone')
      .where('exam_id', '=', w.examId)
      .execute();
    const people = await w.t.db.handle.db
      .selectFrom('candidates')
      .select(['id', 'phone'])
      .where(
        'phone',
        'in',
        invitations.map((i) => i.phone),
      )
      .execute();
    identities = invitations.map((i) => i.phone);
    for (const p of people) {
      const name = `Blindname${p.id}`;
      const school = `Blindschool${p.id}`;
      const email = `blind${p.id}@example.org`;
      await w.t.db.handle.db.updateTable('candidates').set({ name, school, email }).where('id', '=', p.id).execute();
      identities.push(name, school, email);
    }
    expect(people.length).toBeGreaterThan(1);
  });

  it.each(graderCalls)('%s answers a grader of a blind-marked exam with no one named in it', async (name, c) => {
    const fixture = ACCESS_FIXTURES[name];
    const input = fixture ? await fixture(w) : LIST_INPUTS[name];
    if (!input) {
      throw new Error(`${name}: a grader may make it but it has no input: add LIST_INPUTS.${name} in this file`);
    }
    const res = await sendCall(w.t, c, input, grader);
    expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
    const started = res.statusCode === 200 && !c.download ? body<{ job_id?: unknown } | null>(res).data : null;
    if (typeof started?.job_id === 'number') await waitForJob(w.t, grader, started.job_id);
    const text = textOf(res);
    for (const value of identities) {
      expect(text.includes(value), `${name} (${res.statusCode}) reveals "${value}": ${text.slice(0, 400)}`).toBe(false);
    }
  });

  it("an export a grader may download from another's job is blinded too", async () => {
    const started = await inject(w.t, w.tokens.authorA, 'POST', '/admin/results/export', {
      exam_id: w.examId,
      format: 'csv',
    });
    const job = await waitForJob(w.t, w.tokens.authorA, started.job_id as number);
    expect(job.state).toBe('done');
    const res = await sendCall(w.t, api.resultsExportFile, { query: { job_id: job.id } }, grader);
    const text = textOf(res);
    for (const value of identities) expect(text.includes(value), `the author's export reveals ${value}`).toBe(false);
  });
});
