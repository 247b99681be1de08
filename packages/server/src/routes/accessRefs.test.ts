/**
 * The ids a staff call names besides its scope (the catalogue's `refs`): over every call that declares one, each
 * such field is sent once with team A's own ids (the call gets past the check) and once with each kind's
 * resource of team B, and of another exam of team A for a part of an exam (an invitation, slot, version, attempt
 * or similarity pair belongs to the exam the call names): each is refused with 404 and leaves no audit entry.
 */
import { api, EXAM_BOUND_KINDS, roleHas, type CallDef, type CallName, type IdRef } from '@examhall/contract';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { body, type TestApp } from '../test/app.js';
import {
  authoredExam,
  freshPhone,
  inject,
  newTeamExam,
  sendCall,
  type CallInput,
  type Caller,
  worldApp,
} from '../test/callWorld.js';
import { bankFolder, bankQuestion, candidateFile, newSlot, qaQuestion, teamCandidate } from '../test/teamResources.js';
import { ACCESS_FIXTURES, type AccessFixture } from '../test/accessFixtures.js';
import { enterExam } from '../test/checks.js';
import { auditCount as countAuditEntries } from '../test/auditLog.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

/** Inputs that fill the ref fields an access fixture leaves out, with team A's own ids. */
const REF_FIXTURES: Partial<Record<CallName, AccessFixture>> = {
  proctorIdPhoto: async (w) => ({
    body: { exam_id: String(w.examId), attempt_id: String((await w.newAttempt()).attemptId) },
    file: { field: 'id_photo', name: 'id.jpg', type: 'image/jpeg', data: Buffer.from('not a picture') },
  }),
  examEditorSaveDraft: async (w) => {
    const fixture = await ACCESS_FIXTURES.examEditorSaveDraft!(w);
    const b = fixture.body as { draft: { sections: unknown[] } };
    b.draft.sections.push({
      kind: 'linetest',
      title: 'Drawn',
      draw: { count: 1, points: 5, folder_ids: [(await bankFolder(w)).id] },
    });
    return fixture;
  },
  bankFolderCreate: async (w) => ({ body: { name: 'Sub', parent_id: (await bankFolder(w)).id, team_id: w.teamId } }),
  bankFolderUpdate: async (w) => ({
    body: { folder_id: (await bankFolder(w)).id, name: `Moved ${randomUUID()}`, parent_id: (await bankFolder(w)).id },
  }),
  bankQuestionCreate: async (w) => ({
    body: { ...((await ACCESS_FIXTURES.bankQuestionCreate!(w)).body as object), team_id: w.teamId },
  }),
  bankQuestionUpdate: async (w) => ({
    body: { ...((await ACCESS_FIXTURES.bankQuestionUpdate!(w)).body as object), folder_id: (await bankFolder(w)).id },
  }),
  bankBulkMove: async (w) => ({ body: { question_ids: [await bankQuestion(w)], folder_id: (await bankFolder(w)).id } }),
  invitationsBulk: async (w) => ({ body: { exam_id: w.examId, candidate_ids: [await teamCandidate(w)] } }),
  itemAnalysis: async (w) => ({ query: { exam_id: w.examId, version_id: await publishedVersion(w.t, w.examId) } }),
  gradingNext: async (w) => ({ query: { exam_id: w.examId, question_id: await qaQuestion(w) } }),
  examEditorLiveChange: async (w) => {
    const { examId } = await newTeamExam(w, true);
    return { body: { exam_id: examId, extra: [{ anid: await w.t.invite(examId, freshPhone('132')), minutes: 10 }] } };
  },
  scheduleInvitations: async (w) => ({ query: { exam_id: w.examId, slot: await newSlot(w) } }),
  candidateList: (w) => ({ query: { team_id: w.teamId } }),
  candidateCreate: (w) => ({ body: { phone: freshPhone('132'), name: 'Ref', team_id: w.teamId } }),
  candidateImportPreview: (w) => ({ body: { team_id: w.teamId }, file: candidateFile() }),
  candidateImport: (w) => ({ body: { team_id: w.teamId, invite_exam_id: w.examId }, file: candidateFile() }),
  examEditorCreate: (w) => ({ body: { name: `Ref ${randomUUID().slice(0, 6)}`, team_id: w.teamId } }),
};

async function publishedVersion(t: TestApp, examId: number): Promise<number> {
  const row = await t.db.handle.db
    .selectFrom('exams')
    .select('published_version_id')
    .where('id', '=', examId)
    .executeTakeFirstOrThrow();
  return row.published_version_id!;
}

/** Ids of resources the caller may not name, by kind. */
type Foreign = Partial<Record<IdRef, number>>;

/** An exam's parts, made for the test: an invitation, a slot, its published version, an attempt, a pair. */
async function partsOf(t: TestApp, admin: string, examId: number): Promise<Foreign> {
  const phone = freshPhone('136');
  const anid = await t.invite(examId, phone);
  const token = await t.loginCandidate(phone);
  const entered = await enterExam(t, token, examId, anid);
  expect(entered.statusCode, entered.body).toBe(200);
  const attempt = body<{ attempt: { id: number } }>(entered).data.attempt.id;
  const start = t.now() + 3_600_000;
  const slot = await inject(t, admin, 'POST', '/admin/exam/slot/create', {
    exam_id: examId,
    label: 'Foreign',
    start_at: start,
    end_at: start + 3_600_000,
    capacity: 3,
  });
  const question = await t.db.handle.db
    .selectFrom('questions')
    .select('id')
    .where('exam_id', '=', examId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const pair = await t.db.handle.db
    .insertInto('similarity_pairs')
    .values({
      exam_id: examId,
      question_id: question.id,
      attempt_a: attempt,
      attempt_b: attempt,
      language: 'python',
      score: 1,
      share_a: 1,
      share_b: 1,
      matched: 10,
      decided_by: null,
      decided_at: null,
      computed_at: t.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    invitation: (await t.invite(examId, freshPhone('136'))) as number,
    slot: slot.id as number,
    version: await publishedVersion(t, examId),
    attempt,
    pair: pair.id,
    exam_question: question.id,
  };
}

/** A copy of `input` with every id at `path` (in the query or the body) replaced by `id`; null when none is there. */
function withIds(input: CallInput, path: string, id: number): CallInput | null {
  let found = false;
  const swap = (value: unknown, steps: string[]): unknown => {
    if (steps.length === 0) {
      if (Array.isArray(value) && value.length > 0) return ((found = true), [id]);
      if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
        found = true;
        return typeof value === 'string' ? String(id) : id;
      }
      return value;
    }
    const [step, ...rest] = steps as [string, ...string[]];
    const many = step.endsWith('[]');
    const key = many ? step.slice(0, -2) : step;
    if (value === null || typeof value !== 'object' || !(key in value)) return value;
    const next = (value as Record<string, unknown>)[key];
    const replaced = many && Array.isArray(next) ? next.map((v) => swap(v, rest)) : swap(next, rest);
    return { ...(value as object), [key]: replaced };
  };
  const steps = path.split('.');
  const out: CallInput = {
    ...input,
    ...(input.query ? { query: swap(input.query, steps) as CallInput['query'] } : {}),
    ...(input.body !== undefined ? { body: swap(input.body, steps) } : {}),
  };
  return found ? out : null;
}

/** Refs that name a part of an exam: refused even to an admin when it is another exam's. */
const examPart = (ref: IdRef) => ref !== 'exam' && EXAM_BOUND_KINDS.includes(ref as never);

const withRefs = (Object.entries(api) as [CallName, CallDef][]).filter(
  ([, c]) =>
    c.auth === 'staff' &&
    c.refs &&
    // An admin reaches every team's resources: an admin's call is walled only by the exam-part rule.
    Object.values(c.refs).some((r) => r !== 'filter' && (insider(c) !== 'admin' || examPart(r))),
);

/** The least privileged caller of team A who may make the call. */
function insider(c: CallDef): Caller {
  if (roleHas('author', c.permission!)) return 'authorA';
  if (roleHas('proctor', c.permission!)) return 'proctorA';
  return 'admin';
}

describe.each(await testedDialects())('ids named besides the scope, on %s', (dialect) => {
  const w = worldApp(dialect);
  /** Team B's resources. */
  let otherTeam: Foreign;
  /** The parts of another exam of team A. */
  let otherExam: Foreign;

  beforeAll(async () => {
    const examB = (await authoredExam(w.t, w.tokens.authorB, true)).examId;
    const folderB = await inject(w.t, w.tokens.authorB, 'POST', '/admin/bank/folders', { name: 'B' });
    const questionB = await inject(w.t, w.tokens.authorB, 'POST', '/admin/bank/questions', {
      question: { kind: 'qa', content: { stem: '<p>B?</p>' }, key: { rubric: '' } },
      default_score: 5,
    });
    const candidateB = await inject(w.t, w.tokens.authorB, 'POST', '/admin/candidates', {
      phone: freshPhone('139'),
      name: 'Candidate B',
    });
    otherTeam = {
      team: w.otherTeamId,
      staff: w.ids.authorB,
      folder: folderB.id as number,
      question: questionB.id as number,
      candidate: candidateB.id as number,
      exam: examB,
      ...(await partsOf(w.t, w.tokens.admin, examB)),
    };
    otherExam = await partsOf(w.t, w.tokens.admin, (await authoredExam(w.t, w.tokens.authorA, true)).examId);
  });

  const auditCount = () => countAuditEntries(w.t);

  const inputOf = async (name: CallName): Promise<CallInput> => {
    const fixture = REF_FIXTURES[name] ?? ACCESS_FIXTURES[name];
    if (!fixture) throw new Error(`${name} has refs but no fixture: add REF_FIXTURES.${name} in this file`);
    return fixture(w);
  };

  it.each(withRefs)("%s: team A's own ids pass, every other team's or exam's are refused", async (name, c) => {
    const who = insider(c);
    const own = await sendCall(w.t, c, await inputOf(name), w.tokens[who]);
    expect([401, 403, 404], `${name} as ${who} with team A's ids: ${own.statusCode} ${own.body}`).not.toContain(
      own.statusCode,
    );
    expect(own.statusCode, own.body).toBeLessThan(500);
    // A call that queued a job: it ends (and leaves its audit entry) before the refused calls are counted.
    const started = own.statusCode === 200 ? body<{ job_id?: unknown } | null>(own).data : null;
    if (typeof started?.job_id === 'number') await waitForJob(w.t, w.tokens[who], started.job_id);
    for (const [path, ref] of Object.entries(c.refs!)) {
      if (ref === 'filter') continue;
      // An admin reaches every team's resources: only the exam-part rule walls an admin's call.
      if (who === 'admin' && !examPart(ref)) continue;
      const strangers: [string, number | undefined][] = [[`team B's ${ref}`, otherTeam[ref]]];
      if (otherExam[ref] !== undefined) strangers.push([`another exam's ${ref}`, otherExam[ref]]);
      for (const [what, id] of strangers) {
        if (id === undefined) throw new Error(`no ${what} made for ${name}.${path}: add it in beforeAll`);
        const input = withIds(await inputOf(name), path, id);
        if (!input) throw new Error(`the fixture of ${name} leaves ${path} empty: fill it in REF_FIXTURES.${name}`);
        const before = await auditCount();
        const res = await sendCall(w.t, c, input, w.tokens[who]);
        expect([404], `${name}.${path} = ${what} as ${who}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
        expect(await auditCount(), `${name}.${path} = ${what} left an audit entry`).toBe(before);
      }
    }
  });
});
