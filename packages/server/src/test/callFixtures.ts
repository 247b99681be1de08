/**
 * Inputs for staff calls, for the tests that run over the whole route list: routes/access.test.ts (every
 * scoped call refuses another team's resources) and routes/audit.test.ts (every change leaves one audit
 * entry). A new staff call adds its entry to ACCESS_FIXTURES when it has a `scope`, and to AUDIT_FIXTURES
 * when it is not a GET; both tests fail, naming the call, until it does.
 */
import { randomUUID } from 'node:crypto';
import type { CallDef, CallName, StaffRole } from '@examhall/contract';
import type { LightMyRequestResponse } from 'fastify';
import { strToU8, zipSync } from 'fflate';
import { generateSync } from 'otplib';
import { PNG } from 'pngjs';
import { expect } from 'vitest';
import { body, TEST_ADMIN, type TestApp } from './app.js';
import { beepsWav } from '../storage/wav.js';
import { multipart } from './multipart.js';
import { enterExam } from './checks.js';
import { waitForJob } from './jobs.js';
import { JobRepository } from '../repositories/jobs.js';
import { WebhookRepository } from '../repositories/integrations.js';

/** A call's input: query, body (the fields of a multipart call) and the file of a multipart call. */
export interface CallInput {
  query?: Record<string, string | number>;
  body?: unknown;
  file?: { field: string; name: string; type: string; data: Buffer };
}

/**
 * Makes a catalogue call with a staff token. A stream is asked for with HEAD, which answers whether it would
 * open (its checks all run) without holding it open.
 */
export function sendCall(t: TestApp, call: CallDef, input: CallInput, token: string): Promise<LightMyRequestResponse> {
  const query = Object.fromEntries(Object.entries(input.query ?? {}).map(([k, v]) => [k, String(v)]));
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const url = `/api${call.path}`;
  if (call.stream) {
    return t.app.inject({ method: 'HEAD', url, query, headers: { ...headers, accept: 'text/event-stream' } });
  }
  if (call.bodyFormat === 'multipart') {
    const fields = Object.fromEntries(
      Object.entries((input.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    );
    const form = multipart(fields, input.file);
    return t.app.inject({
      method: call.method,
      url,
      query,
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    });
  }
  return t.app.inject({
    method: call.method,
    url,
    query,
    headers,
    ...(call.method === 'GET' ? {} : { payload: (input.body ?? {}) as object }),
  });
}

/** Who makes a call in a test. */
export type Caller = 'admin' | 'authorA' | 'authorB' | 'proctorA' | 'proctorX';

/** A fresh attempt of a newly invited candidate at team A's exam. */
export interface FreshAttempt {
  attemptId: number;
  anid: number;
  phone: string;
  /** The candidate's token. */
  token: string;
}

/**
 * Two teams and what team A owns: its exam (the demo exam), an attempt at it with an open flag, and members.
 * Fixtures build their inputs from these, or make what they need (through the API or the services).
 */
export interface CallWorld {
  t: TestApp;
  /** Team A, whose resources fixtures use. */
  teamId: number;
  /** Team B, whose author must be refused team A's resources. */
  otherTeamId: number;
  /** Team A's exam. */
  examId: number;
  /** An attempt in progress at it. */
  attemptId: number;
  /** The candidate's token of that attempt. */
  candidateToken: string;
  /** An open risk flag of that attempt. */
  recordId: number;
  /** A team A grader that no caller logs in as (staff-scoped calls may rename, disable or reset it). */
  staffId: number;
  /** Staff ids of the callers. */
  ids: Record<Caller, number>;
  /** Tokens: admin; authors of team A and B; a proctor of team A assigned to the exam; one assigned to nothing. */
  tokens: Record<Caller, string>;
  /** Invites a new candidate to team A's exam and starts their attempt. */
  newAttempt(): Promise<FreshAttempt>;
  /** Records a risk flag (screen switch) on the candidate's attempt; answers its record id. */
  newRecord(candidateToken: string): Promise<number>;
  /** Creates a staff account (no caller logs in as it); answers its id. */
  newStaff(role: StaffRole, teamId: number | null): Promise<number>;
  /** Assigns a staff member to team A's exam (nothing when already assigned). */
  assign(staffId: number, role: 'proctor' | 'grader'): Promise<void>;
  /** A password for new accounts. */
  password: string;
}

let phoneSeq = 0;
/** A phone number no other fixture uses in this process. */
export function freshPhone(prefix = '135'): string {
  phoneSeq += 1;
  return `${prefix}${String(phoneSeq).padStart(8, '0')}`;
}

export async function inject(t: TestApp, token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await t.app.inject({
    method,
    url: `/api${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return body<Record<string, unknown>>(res).data;
}

/** Builds the world on a fresh test app. */
export async function buildWorld(t: TestApp): Promise<CallWorld> {
  const password = 'password-1';
  const admin = await t.loginStaff('admin');
  const team = async (name: string) => (await inject(t, admin, 'POST', '/admin/teams', { name })).id as number;
  const teamId = await team(`Team A ${randomUUID().slice(0, 6)}`);
  const otherTeamId = await team(`Team B ${randomUUID().slice(0, 6)}`);
  const member = async (role: StaffRole, team: number | null, name: string) => {
    const phone = freshPhone('137');
    const created = await inject(t, admin, 'POST', '/admin/staff', {
      phone,
      area_code: '86',
      name,
      role,
      password,
      team_id: team,
    });
    const token = (await t.services.staffLogin.login(phone, password, { ip: '127.0.0.1' })).token;
    return { id: created.id as number, token };
  };
  const { examId } = await t.seed('13800138000');
  await t.db.handle.db.updateTable('exams').set({ team_id: teamId }).where('id', '=', examId).execute();

  const authorA = await member('author', teamId, 'Author A');
  const authorB = await member('author', otherTeamId, 'Author B');
  const proctorA = await member('proctor', teamId, 'Proctor A');
  const proctorX = await member('proctor', otherTeamId, 'Proctor X');
  const graderA = await member('grader', teamId, 'Grader A');
  const adminId = (await t.db.handle.db
    .selectFrom('staff')
    .select('id')
    .where('phone', '=', TEST_ADMIN.phone)
    .executeTakeFirstOrThrow())!.id;

  const assign = async (staffId: number, role: 'proctor' | 'grader') => {
    await t.db.handle.db
      .insertInto('exam_staff')
      .values({ exam_id: examId, staff_id: staffId, role, created_at: t.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  };
  await assign(proctorA.id, 'proctor');

  const newAttempt = async (): Promise<FreshAttempt> => {
    const phone = freshPhone('134');
    const anid = await t.invite(examId, phone);
    const token = await t.loginCandidate(phone);
    const res = await enterExam(t, token, examId, anid);
    expect(res.statusCode, res.body).toBe(200);
    return { attemptId: body<{ attempt: { id: number } }>(res).data.attempt.id, anid, phone, token };
  };
  const newRecord = async (candidateToken: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/monitor/record-risk?auth=${candidateToken}`,
      payload: new URLSearchParams({
        exam_id: String(examId),
        risk: '1',
        trigger_time: String(t.now()),
        client_id: randomUUID(),
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ id: number }>(res).data.id;
  };
  const newStaff = async (role: StaffRole, team: number | null) => {
    const created = await inject(t, admin, 'POST', '/admin/staff', {
      phone: freshPhone('133'),
      area_code: '86',
      name: `${role} ${phoneSeq}`,
      role,
      password,
      team_id: team,
    });
    return created.id as number;
  };
  const first = await newAttempt();
  return {
    t,
    teamId,
    otherTeamId,
    examId,
    attemptId: first.attemptId,
    candidateToken: first.token,
    recordId: await newRecord(first.token),
    staffId: graderA.id,
    ids: { admin: adminId, authorA: authorA.id, authorB: authorB.id, proctorA: proctorA.id, proctorX: proctorX.id },
    tokens: {
      admin,
      authorA: authorA.token,
      authorB: authorB.token,
      proctorA: proctorA.token,
      proctorX: proctorX.token,
    },
    newAttempt,
    newRecord,
    newStaff,
    assign,
    password,
  };
}

/**
 * A new exam of team A made by its author through the editor, with a draft listing one new single-choice
 * bank question of team A, open now for a day; published when asked. Answers its id and draft revision.
 */
export async function newTeamExam(w: CallWorld, publish = false): Promise<{ examId: number; revision: number }> {
  return authoredExam(w.t, w.tokens.authorA, publish);
}

/** An exam `author` writes in their team: one single-choice question, open now; published when asked. */
export async function authoredExam(
  t: TestApp,
  author: string,
  publish = false,
): Promise<{ examId: number; revision: number }> {
  const question = await inject(t, author, 'POST', '/admin/bank/questions', {
    question: {
      kind: 'single',
      content: {
        stem: '<p>1 + 1 = ?</p>',
        options: [
          { id: 'A', content: '2' },
          { id: 'B', content: '3' },
        ],
      },
      key: { option: 'A' },
    },
    default_score: 5,
  });
  const created = await inject(t, author, 'POST', '/admin/exam/create', { name: `Exam ${randomUUID().slice(0, 6)}` });
  const examId = created.exam_id as number;
  const now = t.now();
  const saved = await inject(t, author, 'POST', '/admin/exam/save-draft', {
    exam_id: examId,
    revision: 0,
    draft: {
      name: `Exam ${examId}`,
      mode: 1,
      time_minutes: 60,
      start_at: now - 3_600_000,
      end_at: now + 86_400_000,
      settings: {},
      sections: [{ kind: 'linetest', title: '', items: [{ question_id: question.id as number, points: 5 }] }],
    },
  });
  const revision = saved.revision as number;
  if (publish) await inject(t, author, 'POST', '/admin/exam/publish', { exam_id: examId, revision });
  return { examId, revision };
}

/** Builds a scoped call's input on team A's resource (the ids in the call's `scope` field must be team A's). */
export type AccessFixture = (w: CallWorld) => CallInput | Promise<CallInput>;

/** A picture that is not one: the ID photo call answers image_unreadable, past its access check. */
const NOT_A_PICTURE = Buffer.from('not a picture');

/** A single-choice bank question body. */
const BANK_SINGLE = {
  kind: 'single',
  content: {
    stem: '<p>1 + 2 = ?</p>',
    options: [
      { id: 'A', content: '3' },
      { id: 'B', content: '4' },
    ],
  },
  key: { option: 'A' },
};

/** A programming bank question whose Python reference solution passes every case. */
const BANK_PROGRAMMING = {
  kind: 'programming',
  content: { stem: '<p>Print a+b.</p>', languages: ['python'], samples: [{ input: '1 2\n', output: '3\n' }] },
  key: {
    cases: [{ input: '3 4\n', output: '7\n' }],
    reference: { language: 'python', source: 'a, b = map(int, input().split())\nprint(a + b)\n' },
  },
};

/** A new empty bank folder of team A, made by its author; answers its id and name. */
/**
 * A job of team A that another process holds (its lease far off), so no runner here takes it: it stays
 * running until cancelled.
 */
async function heldJob(w: CallWorld): Promise<number> {
  const repo = new JobRepository(w.t.db.handle.db);
  const id = await repo.insert({
    kind: 'bank_import',
    payload: JSON.stringify({ title: 'held elsewhere' }),
    owner_staff_id: w.ids.authorA,
    team_id: w.teamId,
    created_at: w.t.now(),
  });
  await w.t.db.handle.db
    .updateTable('job')
    .set({ state: 'running', locked_by: 'another-process', lease_until: Date.now() + 3_600_000 })
    .where('id', '=', id)
    .execute();
  return id;
}

export async function bankFolder(w: CallWorld): Promise<{ id: number; name: string }> {
  const name = `Folder ${randomUUID().slice(0, 8)}`;
  const created = await inject(w.t, w.tokens.authorA, 'POST', '/admin/bank/folders', { name });
  return { id: created.id as number, name };
}

/** A new bank question of team A (single choice unless said), made by its author; answers its id. */
export async function bankQuestion(w: CallWorld, fields: Record<string, unknown> = {}): Promise<number> {
  const created = await inject(w.t, w.tokens.authorA, 'POST', '/admin/bank/questions', {
    question: BANK_SINGLE,
    default_score: 5,
    ...fields,
  });
  return created.id as number;
}

/** A GIFT file of one single-choice question, as an import's upload. */
function giftFile(): NonNullable<CallInput['file']> {
  return { field: 'file', name: 'one.gift', type: 'text/plain', data: Buffer.from('::Q1:: 1 + 2 = ? {=3 ~4}\n') };
}

/** A candidate of team A (added by its author); answers its id. */
export async function teamCandidate(w: CallWorld, name = 'Access'): Promise<number> {
  const made = await inject(w.t, w.tokens.authorA, 'POST', '/admin/candidates', { phone: freshPhone('132'), name });
  return made.id as number;
}

/** A one-row candidate list. */
export function candidateFile(): NonNullable<CallInput['file']> {
  return {
    field: 'file',
    name: 'list.csv',
    type: 'text/csv',
    data: Buffer.from(`手机号,姓名\n${freshPhone('133')},王五\n`),
  };
}

/** A 1x1 PNG picture. */
function onePixelPng(): Buffer {
  return PNG.sync.write(new PNG({ width: 1, height: 1 }));
}

/** A new slot of team A's exam tomorrow, made by the admin; answers its id. */
export async function newSlot(w: CallWorld, capacity = 5): Promise<number> {
  const start = w.t.now() + 86_400_000;
  const slot = await inject(w.t, w.tokens.admin, 'POST', '/admin/exam/slot/create', {
    exam_id: w.examId,
    label: `Slot ${randomUUID().slice(0, 6)}`,
    start_at: start,
    end_at: start + 7_200_000,
    capacity,
  });
  return slot.id as number;
}

/** An attempt of a new candidate at team A's exam, submitted; answers its id. */
/** A finished results export of team A's exam, started by its author; answers the job's id. */
async function resultsExport(w: CallWorld): Promise<number> {
  const started = await inject(w.t, w.tokens.authorA, 'POST', '/admin/results/export', {
    exam_id: w.examId,
    format: 'csv',
  });
  const job = await waitForJob(w.t, w.tokens.authorA, started.job_id as number);
  expect(job.state).toBe('done');
  return job.id;
}

async function finishedAttempt(w: CallWorld): Promise<number> {
  const { attemptId } = await w.newAttempt();
  await w.t.services.attempts.finish(attemptId, 'submit');
  return attemptId;
}

/** A program long enough to leave fingerprints, for the similarity fixtures. */
const SIMILAR_CODE =
  'import sys\n\ndef solve(values):\n    best = 0\n    for i, v in enumerate(values):\n' +
  '        if v > best and i % 2 == 0:\n            best = v\n    return best\n\n' +
  'print(solve(list(map(int, sys.stdin.read().split()))))\n';

/** The programming question of team A's exam (the demo exam has one). */
export async function programmingQuestion(w: CallWorld): Promise<number> {
  const row = await w.t.db.handle.db
    .selectFrom('questions')
    .select('id')
    .where('exam_id', '=', w.examId)
    .where('kind', '=', 'programming')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The id of the demo's Q&A question in team A's published exam version. */
export async function qaQuestion(w: CallWorld): Promise<number> {
  const row = await w.t.db.handle.db
    .selectFrom('questions')
    .innerJoin('exams', 'exams.published_version_id', 'questions.version_id')
    .select('questions.id')
    .where('exams.id', '=', w.examId)
    .where('questions.kind', '=', 'qa')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Two new candidates at team A's exam who answered its programming question with the same code, compared by
 * the similarity job: answers the question and the pair it stored.
 */
export async function similarPair(w: CallWorld): Promise<{ questionId: number; pairId: number }> {
  const questionId = await programmingQuestion(w);
  const attempts = [(await w.newAttempt()).attemptId, (await w.newAttempt()).attemptId];
  for (const attemptId of attempts) {
    await w.t.db.handle.db
      .insertInto('answers')
      .values({
        attempt_id: attemptId,
        question_id: questionId,
        value: JSON.stringify({ kind: 'code', language: 'python', code: SIMILAR_CODE }),
        version: 1,
        seq: 1,
        saved_at: w.t.now(),
      })
      .execute();
  }
  const started = await inject(w.t, w.tokens.admin, 'POST', '/admin/grading/similarity/run', {
    exam_id: w.examId,
    question_id: questionId,
  });
  const job = await waitForJob(w.t, w.tokens.admin, started.job_id as number);
  expect(job.state, JSON.stringify(job.error)).toBe('done');
  const pair = await w.t.db.handle.db
    .selectFrom('similarity_pairs')
    .select('id')
    .where('attempt_a', '=', Math.min(...attempts))
    .where('attempt_b', '=', Math.max(...attempts))
    .executeTakeFirstOrThrow();
  return { questionId, pairId: pair.id };
}

/** A finished attempt whose Q&A answer waits for a grader. */
async function answerToGrade(w: CallWorld): Promise<{ attempt_id: number; question_id: number }> {
  const a = await w.newAttempt();
  const questionId = await qaQuestion(w);
  const res = await w.t.app.inject({
    method: 'POST',
    url: `/api/answer/answer?auth=${a.token}`,
    payload: {
      exam_id: w.examId,
      subject_id: questionId,
      answer: { kind: 'text', html: '<p>Atomicity and durability.</p>', files: [] },
      client_id: randomUUID(),
      seq: 1,
      changed_at: w.t.now(),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  await w.t.services.attempts.finish(a.attemptId, 'submit');
  return { attempt_id: a.attemptId, question_id: questionId };
}

/**
 * A finished attempt whose Q&A answer has two marks too far apart (by Grader A and another grader of team A,
 * written as their marking would), so it waits for the deciding mark of someone who gave neither.
 */
async function answerToReconcile(w: CallWorld): Promise<{ attempt_id: number; question_id: number }> {
  const answer = await answerToGrade(w);
  const graders = [w.staffId, await w.newStaff('grader', w.teamId)];
  for (const [i, graderId] of graders.entries()) {
    await w.assign(graderId, 'grader');
    await w.t.db.handle.db
      .insertInto('grading_marks')
      .values({
        ...answer,
        exam_id: w.examId,
        grader_id: graderId,
        criteria: JSON.stringify(i === 0 ? [2.5, 2.5, 0, 0] : [2.5, 2.5, 2.5, 2.5]),
        total: i === 0 ? 5 : 10,
        comment: '',
        reconciling: 0,
        created_at: w.t.now(),
      })
      .execute();
  }
  return answer;
}

/** Inputs of every scoped staff call (routes/access.test.ts). */
export const ACCESS_FIXTURES: Partial<Record<CallName, AccessFixture>> = {
  jobDetail: async (w) => ({ query: { job_id: await heldJob(w) } }),
  jobCancel: async (w) => ({ body: { job_id: await heldJob(w) } }),
  staffUpdate: (w) => ({ body: { id: w.staffId, name: 'Grader A' } }),
  staffResetPassword: (w) => ({ body: { id: w.staffId, password: w.password } }),
  staffResetTotp: async (w) => {
    await secondFactorOn(w, w.staffId);
    return { body: { id: w.staffId } };
  },
  proctorGrid: (w) => ({ query: { exam_id: w.examId } }),
  proctorStream: (w) => ({ query: { exam_id: w.examId } }),
  proctorAttempt: (w) => ({ query: { attempt_id: w.attemptId } }),
  proctorWarn: (w) => ({ body: { attempt_id: w.attemptId, text: 'Please face the camera.' } }),
  proctorEnd: async (w) => ({ body: { attempt_id: (await w.newAttempt()).attemptId, reason: 'Left the room' } }),
  proctorDecide: (w) => ({ body: { record_id: w.recordId, decision: 'dismissed', note: '' } }),
  proctorIdPhoto: async (w) => ({
    body: { exam_id: String(w.examId), phone: (await w.newAttempt()).phone },
    file: { field: 'id_photo', name: 'id.jpg', type: 'image/jpeg', data: NOT_A_PICTURE },
  }),
  verifyEvidence: (w) => ({ query: { attempt_id: w.attemptId } }),
  teamUpdate: (w) => ({ body: { id: w.teamId, name: `Team A ${randomUUID().slice(0, 6)}` } }),
  examStaffList: (w) => ({ query: { exam_id: w.examId } }),
  // A fresh grader: the call is made once refused and once allowed.
  examStaffAssign: async (w) => ({
    body: { exam_id: w.examId, staff_id: await w.newStaff('grader', w.teamId), role: 'grader' },
  }),
  examStaffUnassign: async (w) => {
    await w.assign(w.staffId, 'grader');
    return { body: { exam_id: w.examId, staff_id: w.staffId, role: 'grader' } };
  },
  examEditorDetail: (w) => ({ query: { exam_id: w.examId } }),
  examEditorVersions: (w) => ({ query: { exam_id: w.examId } }),
  examEditorSaveDraft: async (w) => {
    const { examId, revision } = await newTeamExam(w);
    const draft = (await inject(w.t, w.tokens.authorA, 'GET', `/admin/exam/detail?exam_id=${examId}`)).draft;
    return { body: { exam_id: examId, revision, draft } };
  },
  examEditorPublish: async (w) => ({ body: { exam_id: (await newTeamExam(w)).examId, revision: 1 } }),
  examEditorLiveChange: async (w) => ({ body: { exam_id: (await newTeamExam(w, true)).examId, time_minutes: 90 } }),
  examEditorCopy: (w) => ({ body: { exam_id: w.examId } }),
  examEditorArchive: async (w) => ({ body: { exam_id: (await newTeamExam(w)).examId, archived: true } }),
  examEditorPreview: async (w) => ({ body: { exam_id: (await newTeamExam(w)).examId } }),
  examEditorPreviewKeys: async (w) => {
    const { examId } = await newTeamExam(w);
    const preview = await inject(w.t, w.tokens.authorA, 'POST', '/admin/exam/preview', { exam_id: examId });
    return { query: { exam_id: examId, version_id: preview.version_id as number } };
  },
  examEditorInvite: (w) => ({ body: { exam_id: w.examId, phones: [{ phone: freshPhone('131') }] } }),
  invitationsBulk: (w) => ({ body: { exam_id: w.examId, phones: [{ phone: freshPhone('133') }] } }),
  invitationsResend: async (w) => ({
    body: { exam_id: w.examId, anids: [await w.t.invite(w.examId, freshPhone('133'))] },
  }),
  invitationsRevoke: async (w) => ({
    body: { exam_id: w.examId, anids: [await w.t.invite(w.examId, freshPhone('133'))], reason: '重复报名' },
  }),
  examSms: (w) => ({ query: { exam_id: w.examId } }),
  examSmsSave: (w) => ({
    body: {
      exam_id: w.examId,
      invitation_template: '{link}',
      reminder_template: '{exam} {link}',
      reminder_minutes: [60],
    },
  }),
  smsList: (w) => ({ query: { exam_id: w.examId } }),
  bankFolderCreate: async (w) => ({ body: { name: 'Sub-folder', parent_id: (await bankFolder(w)).id } }),
  bankFolderUpdate: async (w) => ({ body: { folder_id: (await bankFolder(w)).id, name: `Renamed ${randomUUID()}` } }),
  bankFolderDelete: async (w) => ({ body: { folder_id: (await bankFolder(w)).id } }),
  bankQuestions: async (w) => ({ query: { folder_id: (await bankFolder(w)).id } }),
  bankQuestion: async (w) => ({ query: { question_id: await bankQuestion(w) } }),
  bankQuestionCreate: async (w) => ({
    body: { folder_id: (await bankFolder(w)).id, question: BANK_SINGLE, default_score: 5 },
  }),
  bankQuestionUpdate: async (w) => ({
    body: { question_id: await bankQuestion(w), revision: 1, question: BANK_SINGLE, default_score: 6 },
  }),
  bankBulkMove: async (w) => ({ body: { question_ids: [await bankQuestion(w)], folder_id: null } }),
  bankBulkTag: async (w) => ({ body: { question_ids: [await bankQuestion(w)], tags: ['access'] } }),
  bankBulkUntag: async (w) => ({
    body: { question_ids: [await bankQuestion(w, { tags: ['access'] })], tags: ['access'] },
  }),
  bankBulkDelete: async (w) => ({ body: { question_ids: [await bankQuestion(w)] } }),
  // A question that is no programming one: the check answers 422 past the access check, without the judge.
  bankVerify: async (w) => ({ body: { question_id: await bankQuestion(w) } }),
  bankImportPreview: async (w) => ({ body: { folder_id: (await bankFolder(w)).id }, file: giftFile() }),
  bankImport: async (w) => ({ body: { folder_id: (await bankFolder(w)).id }, file: giftFile() }),
  bankExportFolder: async (w) => ({ query: { folder_id: (await bankFolder(w)).id, format: 'gift' } }),
  bankExportQuestions: async (w) => ({ query: { question_ids: String(await bankQuestion(w)), format: 'gift' } }),
  examExport: (w) => ({ query: { exam_id: w.examId, format: 'moodle_xml' } }),
  scheduleSlots: (w) => ({ query: { exam_id: w.examId } }),
  scheduleSlotCreate: (w) => ({
    body: { exam_id: w.examId, start_at: w.t.now() + 3_600_000, end_at: w.t.now() + 7_200_000, capacity: 3 },
  }),
  scheduleSlotUpdate: async (w) => ({
    body: {
      exam_id: w.examId,
      slot_id: await newSlot(w),
      start_at: w.t.now() + 3_600_000,
      end_at: w.t.now() + 7_200_000,
      capacity: 4,
    },
  }),
  scheduleSlotDelete: async (w) => ({ body: { exam_id: w.examId, slot_id: await newSlot(w) } }),
  scheduleSlotMode: (w) => ({ body: { exam_id: w.examId, slot_mode: 'assigned' } }),
  scheduleInvitations: (w) => ({ query: { exam_id: w.examId } }),
  scheduleAssignSlot: async (w) => ({
    body: {
      exam_id: w.examId,
      invitation_ids: [await w.t.invite(w.examId, freshPhone('132'))],
      slot_id: await newSlot(w),
    },
  }),
  scheduleAccommodations: async (w) => ({
    body: {
      exam_id: w.examId,
      invitation_ids: [await w.t.invite(w.examId, freshPhone('132'))],
      extra: { mode: 'minutes', value: 10 },
    },
  }),
  scheduleReopen: async (w) => ({ body: { attempt_id: await finishedAttempt(w), reason: 'Power cut', minutes: 20 } }),
  candidateDetail: async (w) => ({ query: { candidate_id: await teamCandidate(w) } }),
  candidateUpdate: async (w) => ({
    body: { candidate_id: await teamCandidate(w), phone: freshPhone('132'), name: 'Edited' },
  }),
  examCandidates: (w) => ({ query: { exam_id: w.examId } }),
  examCandidatesExport: (w) => ({ query: { exam_id: w.examId, format: 'csv' } }),
  similarityQuestions: (w) => ({ query: { exam_id: w.examId } }),
  similarityRun: async (w) => ({ body: { exam_id: w.examId, question_id: await programmingQuestion(w) } }),
  similarityPairs: async (w) => ({ query: { exam_id: w.examId, question_id: await programmingQuestion(w) } }),
  similarityPair: async (w) => ({ query: { exam_id: w.examId, pair_id: (await similarPair(w)).pairId } }),
  similarityDecide: async (w) => ({
    body: { exam_id: w.examId, pair_id: (await similarPair(w)).pairId, status: 'dismissed', note: '' },
  }),
  gradingSetup: (w) => ({ query: { exam_id: w.examId } }),
  gradingSettings: (w) => ({ body: { exam_id: w.examId, blind: false, double_marking: false, margin: 0 } }),
  gradingAssign: async (w) => ({
    body: { exam_id: w.examId, staff_id: await w.newStaff('grader', w.teamId), sections: ['major'] },
  }),
  gradingNext: (w) => ({ query: { exam_id: w.examId } }),
  gradingItem: async (w) => ({ query: await answerToGrade(w) }),
  gradingMark: async (w) => ({ body: { ...(await answerToGrade(w)), criteria: [2.5, 2.5, 0, 0] } }),
  gradingReconcile: (w) => ({ query: { exam_id: w.examId } }),
  gradingReconcileMark: async (w) => ({ body: { ...(await answerToReconcile(w)), criteria: [2.5, 2.5, 2.5, 0] } }),
  gradingProgress: (w) => ({ query: { exam_id: w.examId } }),
  itemAnalysis: (w) => ({ query: { exam_id: w.examId } }),
  gradingKey: async (w) => ({
    body: { exam_id: w.examId, question_id: await qaQuestion(w), key: { rubric: 'Four properties.' } },
  }),
  resultsRanking: (w) => ({ query: { exam_id: w.examId } }),
  resultsReport: async (w) => ({ query: { attempt_id: await finishedAttempt(w) } }),
  resultsStats: (w) => ({ query: { exam_id: w.examId } }),
  resultsDimensions: (w) => ({ query: { exam_id: w.examId } }),
  resultsExport: (w) => ({ body: { exam_id: w.examId, format: 'xlsx' } }),
  resultsExportFile: async (w) => ({ query: { job_id: await resultsExport(w) } }),
};

/** What a change's audit entry must say: its action and object, and what before and after contain. */
export interface AuditExpectation {
  action: string;
  kind: string;
  /** The object's id (null for an object without one, e.g. an uploaded file), or how to read it from the call's answer (a create). */
  id: number | null | ((data: Record<string, unknown>) => number);
  /** null: none (a create); else fields the snapshot has (toMatchObject). */
  before: Record<string, unknown> | null;
  /** null: none (a delete); else fields the snapshot has. */
  after: Record<string, unknown> | null;
}

/** One change to make and the entry it must leave. */
export interface AuditCase {
  /** Who makes it (admin unless said). */
  as?: Caller;
  input: CallInput;
  expect: AuditExpectation;
  /** Milliseconds the call may take (e.g. the first face check loads its models). */
  timeoutMs?: number;
  /** Waits for what the call started to end (a job it queued), before the entries are counted. */
  settle?: (data: Record<string, unknown>) => Promise<void>;
}

/** Builds a change and its expected entry. */
export type AuditFixture = (w: CallWorld) => AuditCase | Promise<AuditCase>;

/** Proctor X without a second factor, then (with `to`) enrolled up to that point; answers the secret enrolled. */
async function totpOf(w: CallWorld, to: 'none' | 'enrolled' | 'on'): Promise<string> {
  await w.t.db.handle.db
    .updateTable('staff')
    .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
    .where('id', '=', w.ids.proctorX)
    .execute();
  if (to === 'none') return '';
  const { secret } = (await inject(w.t, w.tokens.proctorX, 'POST', '/admin/auth/totp/enrol')) as { secret: string };
  if (to === 'on') {
    const code = generateSync({ secret, epoch: Math.floor(w.t.now() / 1000) });
    await inject(w.t, w.tokens.proctorX, 'POST', '/admin/auth/totp/confirm', { code });
  }
  return secret;
}

/** Gives account `id` a second factor, written directly (as a secret stored before encryption would be). */
async function secondFactorOn(w: CallWorld, id: number): Promise<void> {
  await w.t.db.handle.db
    .updateTable('staff')
    .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_pending_secret: null, totp_last_step: null })
    .where('id', '=', id)
    .execute();
}

/** A webhook endpoint (every exam's) at an address nothing answers; answers its id. */
async function webhookEndpoint(w: CallWorld): Promise<number> {
  return new WebhookRepository(w.t.db.handle.db).insertEndpoint({
    url: 'http://127.0.0.1:9/hook',
    secret: 'a-secret-of-sixteen-chars',
    team_id: null,
    description: 'ATS',
    enabled: 1,
    created_by: w.ids.admin,
    created_at: w.t.now(),
    updated_at: w.t.now(),
  });
}

/** A delivery of an `attempt.scored` event given up on; answers its id. */
async function failedDelivery(w: CallWorld): Promise<number> {
  const repo = new WebhookRepository(w.t.db.handle.db);
  const endpointId = await webhookEndpoint(w);
  const now = w.t.now();
  const eventId = await repo.insertEvent(
    { event: 'attempt.scored', attempt_id: w.attemptId, exam_id: w.examId, score: 1, max_score: 2, created_at: now },
    [endpointId],
    now,
  );
  const id = await repo.holdEvent(eventId, now);
  await repo.markFailedTry(id, 500, 'answered 500', null, now);
  return id;
}

/** An API token of every exam, made by the admin; answers its id. */
async function apiTokenId(w: CallWorld): Promise<number> {
  const made = await inject(w.t, w.tokens.admin, 'POST', '/admin/integrations/token/create', { name: 'ATS' });
  return (made.api_token as { id: number }).id;
}

/** Changes every mutating staff call makes (routes/audit.test.ts). */
export const AUDIT_FIXTURES: Partial<Record<CallName, AuditFixture>> = {
  jobCancel: async (w) => ({
    as: 'authorA',
    input: { body: { job_id: await heldJob(w) } },
    expect: {
      action: 'job.cancel',
      kind: 'job',
      id: (data) => data.id as number,
      before: { state: 'running', kind: 'bank_import' },
      after: { state: 'running', cancel_requested: true },
    },
  }),
  // A change of one's own account: proctor X's second factor.
  staffTotpEnrol: async (w) => {
    await totpOf(w, 'none');
    const id = w.ids.proctorX;
    return {
      as: 'proctorX',
      input: {},
      expect: { action: 'staff.totp_enrol', kind: 'staff', id, before: { id }, after: { id, totp_enabled: false } },
    };
  },
  staffTotpConfirm: async (w) => {
    const secret = await totpOf(w, 'enrolled');
    const id = w.ids.proctorX;
    return {
      as: 'proctorX',
      input: { body: { code: generateSync({ secret, epoch: Math.floor(w.t.now() / 1000) }) } },
      expect: {
        action: 'staff.totp_enable',
        kind: 'staff',
        id,
        before: { id, totp_enabled: false },
        after: { id, totp_enabled: true },
      },
    };
  },
  staffTotpDisable: async (w) => {
    await totpOf(w, 'on');
    const id = w.ids.proctorX;
    return {
      as: 'proctorX',
      input: { body: { password: w.password } },
      expect: {
        action: 'staff.totp_disable',
        kind: 'staff',
        id,
        before: { id, totp_enabled: true },
        after: { id, totp_enabled: false },
      },
    };
  },
  staffCreate: (w) => {
    const phone = freshPhone('132');
    return {
      input: { body: { phone, area_code: '86', name: 'New grader', role: 'grader', password: w.password } },
      expect: {
        action: 'staff.create',
        kind: 'staff',
        id: (d) => d.id as number,
        before: null,
        after: { phone, name: 'New grader', role: 'grader', team_id: null, disabled: false },
      },
    };
  },
  staffUpdate: async (w) => {
    const id = await w.newStaff('grader', w.teamId);
    return {
      input: { body: { id, name: 'Proctor now', role: 'proctor', team_id: w.otherTeamId, disabled: true } },
      expect: {
        action: 'staff.update',
        kind: 'staff',
        id,
        before: { id, role: 'grader', team_id: w.teamId, disabled: false },
        after: { id, name: 'Proctor now', role: 'proctor', team_id: w.otherTeamId, disabled: true },
      },
    };
  },
  staffResetTotp: async (w) => {
    const id = await w.newStaff('grader', w.teamId);
    await secondFactorOn(w, id);
    return {
      input: { body: { id } },
      expect: {
        action: 'staff.totp_reset',
        kind: 'staff',
        id,
        before: { id, totp_enabled: true },
        after: { id, totp_enabled: false },
      },
    };
  },
  staffResetPassword: (w) => ({
    input: { body: { id: w.staffId, password: 'another-password' } },
    expect: {
      action: 'staff.reset_password',
      kind: 'staff',
      id: w.staffId,
      before: { id: w.staffId },
      after: { id: w.staffId },
    },
  }),
  proctorWarn: (w) => ({
    input: { body: { attempt_id: w.attemptId, text: 'Eyes on your screen.' } },
    expect: {
      action: 'proctor.warn',
      kind: 'attempt',
      id: w.attemptId,
      before: null,
      after: { text: 'Eyes on your screen.' },
    },
  }),
  proctorEnd: async (w) => {
    const { attemptId } = await w.newAttempt();
    return {
      input: { body: { attempt_id: attemptId, reason: 'Another person in the room' } },
      expect: {
        action: 'proctor.end',
        kind: 'attempt',
        id: attemptId,
        before: { phase: 2, finish_reason: null },
        after: { phase: 3, finish_reason: 'proctor', finish_note: 'Another person in the room' },
      },
    };
  },
  proctorDecide: async (w) => {
    const recordId = await w.newRecord(w.candidateToken);
    return {
      input: {
        body: { record_id: recordId, decision: 'confirmed', note: 'seen on camera', candidate_note: 'stay in view' },
      },
      expect: {
        action: 'proctor.decide',
        kind: 'record',
        id: recordId,
        before: { decision: null },
        after: { decision: 'confirmed', decision_note: 'seen on camera', candidate_note: 'stay in view' },
      },
    };
  },
  proctorIdPhoto: async (w) => {
    const { facePhoto } = await import('../bench/facePhotos.js');
    const { anid, phone } = await w.newAttempt();
    return {
      input: {
        body: { exam_id: String(w.examId), phone },
        file: { field: 'id_photo', name: 'id.jpg', type: 'image/jpeg', data: facePhoto('a') },
      },
      expect: {
        action: 'proctor.id_photo',
        kind: 'invitation',
        id: anid,
        before: { id_photo_key: null, id_photo_sha256: null },
        after: { id_photo_key: expect.any(String), id_photo_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
      timeoutMs: 120_000,
    };
  },
  teamCreate: () => {
    const name = `Team ${randomUUID().slice(0, 8)}`;
    return {
      input: { body: { name } },
      expect: { action: 'team.create', kind: 'team', id: (d) => d.id as number, before: null, after: { name } },
    };
  },
  teamUpdate: async (w) => {
    const [before] = await w.t.db.handle.db.selectFrom('teams').select('name').where('id', '=', w.teamId).execute();
    const name = `Team A ${randomUUID().slice(0, 8)}`;
    return {
      input: { body: { id: w.teamId, name } },
      expect: {
        action: 'team.update',
        kind: 'team',
        id: w.teamId,
        before: { id: w.teamId, name: before!.name },
        after: { id: w.teamId, name },
      },
    };
  },
  examStaffAssign: async (w) => {
    const staffId = await w.newStaff('grader', w.teamId);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, staff_id: staffId, role: 'grader' } },
      expect: {
        action: 'exam_staff.assign',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { exam_id: w.examId, staff_id: staffId, role: 'grader' },
      },
    };
  },
  examEditorCreate: (w) => ({
    as: 'authorA',
    input: { body: { name: 'Audited exam' } },
    expect: {
      action: 'exam.create',
      kind: 'exam',
      id: (d) => d.exam_id as number,
      before: null,
      after: { team_id: w.teamId, draft: { name: 'Audited exam' } },
    },
  }),
  examEditorSaveDraft: async (w) => {
    const { examId, revision } = await newTeamExam(w);
    const draft = (await inject(w.t, w.tokens.authorA, 'GET', `/admin/exam/detail?exam_id=${examId}`)).draft as Record<
      string,
      unknown
    >;
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, revision, draft: { ...draft, name: 'Renamed', time_minutes: 45 } } },
      expect: {
        action: 'exam.save_draft',
        kind: 'exam',
        id: examId,
        before: { name: `Exam ${examId}`, time_minutes: 60 },
        after: { name: 'Renamed', time_minutes: 45 },
      },
    };
  },
  examEditorPublish: async (w) => {
    const { examId, revision } = await newTeamExam(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, revision } },
      expect: {
        action: 'exam.publish',
        kind: 'exam',
        id: examId,
        before: { status: 'draft', published_version_id: null },
        after: { status: 'published', number: 1 },
      },
    };
  },
  examEditorLiveChange: async (w) => {
    const { examId } = await newTeamExam(w, true);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, time_minutes: 90 } },
      expect: {
        action: 'exam.live_change',
        kind: 'exam',
        id: examId,
        before: { time_minutes: 60 },
        after: { time_minutes: 90 },
      },
    };
  },
  examEditorCopy: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId } },
    expect: {
      action: 'exam.copy',
      kind: 'exam',
      id: (d) => d.exam_id as number,
      before: null,
      after: { copied_from: w.examId },
    },
  }),
  examEditorArchive: async (w) => {
    const { examId } = await newTeamExam(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, archived: true } },
      expect: {
        action: 'exam.archive',
        kind: 'exam',
        id: examId,
        before: { status: 'draft' },
        after: { status: 'archived' },
      },
    };
  },
  examEditorPreview: async (w) => {
    const { examId } = await newTeamExam(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId } },
      expect: {
        action: 'exam.preview',
        kind: 'exam',
        id: examId,
        before: null,
        after: { version_id: expect.any(Number), number: 1 },
      },
    };
  },
  examEditorInvite: (w) => {
    const phone = freshPhone('131');
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, phones: [{ phone }], extra_minutes: 5 } },
      expect: {
        action: 'exam.invite',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { invited: [{ phone, area_code: '86' }], extra_minutes: 5 },
      },
    };
  },
  invitationsBulk: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, phones: [{ phone: freshPhone('134') }] } },
    expect: {
      action: 'exam.invite_bulk',
      kind: 'exam',
      id: w.examId,
      before: null,
      after: { job_id: expect.any(Number), phones: 1, candidates: 0, send_sms: true },
    },
  }),
  invitationsResend: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('134'));
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, anids: [anid] } },
      expect: { action: 'exam.invite_resend', kind: 'exam', id: w.examId, before: null, after: { anids: [anid] } },
    };
  },
  invitationsRevoke: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('134'));
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, anids: [anid], reason: '重复报名' } },
      expect: { action: 'exam.invite_revoke', kind: 'exam', id: w.examId, before: null, after: { anids: [anid] } },
    };
  },
  examSmsSave: (w) => ({
    as: 'authorA',
    input: {
      body: {
        exam_id: w.examId,
        invitation_template: '{link}',
        reminder_template: '{exam} {link}',
        reminder_minutes: [90],
      },
    },
    expect: {
      action: 'exam.sms_settings',
      kind: 'exam',
      id: w.examId,
      before: { reminder_minutes: expect.any(Array) },
      after: { invitation_template: '{link}', reminder_template: '{exam} {link}', reminder_minutes: [90] },
    },
  }),
  examStaffUnassign: async (w) => {
    const staffId = await w.newStaff('proctor', w.teamId);
    await w.assign(staffId, 'proctor');
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, staff_id: staffId, role: 'proctor' } },
      expect: {
        action: 'exam_staff.unassign',
        kind: 'exam',
        id: w.examId,
        before: { exam_id: w.examId, staff_id: staffId, role: 'proctor' },
        after: null,
      },
    };
  },
  bankFolderCreate: (w) => ({
    as: 'authorA',
    input: { body: { name: 'Audited folder' } },
    expect: {
      action: 'bank.folder.create',
      kind: 'folder',
      id: (d) => d.id as number,
      before: null,
      after: { name: 'Audited folder', team_id: w.teamId, parent_id: null },
    },
  }),
  bankFolderUpdate: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id, name: `${folder.name} renamed` } },
      expect: {
        action: 'bank.folder.update',
        kind: 'folder',
        id: folder.id,
        before: { name: folder.name },
        after: { name: `${folder.name} renamed` },
      },
    };
  },
  bankFolderDelete: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id } },
      expect: {
        action: 'bank.folder.delete',
        kind: 'folder',
        id: folder.id,
        before: { name: folder.name },
        after: null,
      },
    };
  },
  bankQuestionCreate: (w) => ({
    as: 'authorA',
    input: { body: { question: BANK_SINGLE, default_score: 5, tags: ['audited'] } },
    expect: {
      action: 'bank.question.create',
      kind: 'question',
      id: (d) => d.id as number,
      before: null,
      after: { kind: 'single', team_id: w.teamId, tags: ['audited'], key: { option: 'A' } },
    },
  }),
  bankQuestionUpdate: async (w) => {
    const id = await bankQuestion(w);
    return {
      as: 'authorA',
      input: { body: { question_id: id, revision: 1, question: BANK_SINGLE, difficulty: 5, default_score: 5 } },
      expect: {
        action: 'bank.question.update',
        kind: 'question',
        id,
        before: { difficulty: 3, revision: 1 },
        after: { difficulty: 5, revision: 2 },
      },
    };
  },
  bankBulkMove: async (w) => {
    const id = await bankQuestion(w);
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { question_ids: [id], folder_id: folder.id } },
      expect: {
        action: 'bank.question.move',
        kind: 'question',
        id,
        before: { folder_id: null },
        after: { folder_id: folder.id },
      },
    };
  },
  bankBulkTag: async (w) => {
    const id = await bankQuestion(w);
    return {
      as: 'authorA',
      input: { body: { question_ids: [id], tags: ['new'] } },
      expect: { action: 'bank.question.tag', kind: 'question', id, before: { tags: [] }, after: { tags: ['new'] } },
    };
  },
  bankBulkUntag: async (w) => {
    const id = await bankQuestion(w, { tags: ['old'] });
    return {
      as: 'authorA',
      input: { body: { question_ids: [id], tags: ['old'] } },
      expect: { action: 'bank.question.untag', kind: 'question', id, before: { tags: ['old'] }, after: { tags: [] } },
    };
  },
  bankBulkDelete: async (w) => {
    const id = await bankQuestion(w);
    return {
      as: 'authorA',
      input: { body: { question_ids: [id] } },
      expect: { action: 'bank.question.delete', kind: 'question', id, before: { id, kind: 'single' }, after: null },
    };
  },
  bankVerify: async (w) => {
    const id = await bankQuestion(w, { question: BANK_PROGRAMMING });
    return {
      as: 'authorA',
      input: { body: { question_id: id } },
      expect: {
        action: 'bank.question.verify',
        kind: 'question',
        id,
        before: null,
        after: { ok: true, verdict: 'AC', revision: 1 },
      },
      timeoutMs: 60_000,
    };
  },
  bankUploadImage: () => ({
    as: 'authorA',
    input: { file: { field: 'file', name: 'dot.png', type: 'image/png', data: onePixelPng() } },
    expect: {
      action: 'bank.upload.image',
      kind: 'file',
      id: null,
      before: null,
      after: { mime: 'image/png', key: expect.stringMatching(/^bank\/images\/[0-9a-f]{64}\.png$/) },
    },
  }),
  bankUploadAudio: () => ({
    as: 'authorA',
    input: { file: { field: 'file', name: 'beeps.wav', type: 'audio/wav', data: beepsWav(2) } },
    expect: {
      action: 'bank.upload.audio',
      kind: 'file',
      id: null,
      before: null,
      after: { mime: 'audio/wav', duration_s: expect.any(Number) },
    },
  }),
  bankUploadCases: () => ({
    as: 'authorA',
    input: {
      file: {
        field: 'file',
        name: 'cases.zip',
        type: 'application/zip',
        data: Buffer.from(zipSync({ '1.in': strToU8('1 2\n'), '1.out': strToU8('3\n') })),
      },
    },
    expect: { action: 'bank.upload.cases', kind: 'file', id: null, before: null, after: { cases: 1 } },
  }),
  candidateCreate: () => ({
    as: 'authorA',
    input: { body: { phone: '13299990001', name: 'Audit create' } },
    expect: {
      action: 'candidate.create',
      kind: 'candidate',
      id: (data) => data.id as number,
      before: null,
      after: { phone: '13299990001', name: 'Audit create' },
    },
  }),
  candidateUpdate: async (w) => {
    const id = await teamCandidate(w, 'Before');
    return {
      as: 'authorA',
      input: { body: { candidate_id: id, phone: '13299990002', name: 'After' } },
      expect: {
        action: 'candidate.update',
        kind: 'candidate',
        id,
        before: { name: 'Before' },
        after: { phone: '13299990002', name: 'After' },
      },
    };
  },
  candidateImportPreview: (w) => ({
    as: 'authorA',
    input: { file: candidateFile() },
    expect: {
      action: 'candidate.import.preview',
      kind: 'team',
      id: w.teamId,
      before: null,
      after: { file_name: 'list.csv', rows: 1, create: 1 },
    },
  }),
  candidateImport: (w) => ({
    as: 'authorA',
    input: { file: candidateFile() },
    expect: {
      action: 'candidate.import',
      kind: 'team',
      id: w.teamId,
      before: null,
      after: { file_name: 'list.csv', create: 1, skipped: 0 },
    },
  }),
  bankImportPreview: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id }, file: giftFile() },
      expect: {
        action: 'bank.import.preview',
        kind: 'folder',
        id: folder.id,
        before: null,
        after: { file_name: 'one.gift', format: 'gift', questions: 1 },
      },
    };
  },
  bankImport: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id, tags: 'imported' }, file: giftFile() },
      settle: async (data) => {
        await waitForJob(w.t, w.tokens.authorA, data.job_id as number);
      },
      expect: {
        action: 'bank.import',
        kind: 'folder',
        id: folder.id,
        before: null,
        after: { file_name: 'one.gift', format: 'gift', questions: 1, tags: ['imported'], skipped: 0 },
      },
    };
  },
  scheduleSlotCreate: (w) => {
    const start = w.t.now() + 3_600_000;
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, label: 'Morning', start_at: start, end_at: start + 3_600_000, capacity: 3 } },
      expect: {
        action: 'exam.slot.create',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { label: 'Morning', start_at: start, end_at: start + 3_600_000, capacity: 3, taken: 0 },
      },
    };
  },
  scheduleSlotUpdate: async (w) => {
    const slotId = await newSlot(w, 5);
    const start = w.t.now() + 3_600_000;
    return {
      as: 'authorA',
      input: {
        body: {
          exam_id: w.examId,
          slot_id: slotId,
          label: 'Later',
          start_at: start,
          end_at: start + 60_000,
          capacity: 8,
        },
      },
      expect: {
        action: 'exam.slot.update',
        kind: 'exam',
        id: w.examId,
        before: { id: slotId, capacity: 5 },
        after: { id: slotId, label: 'Later', capacity: 8 },
      },
    };
  },
  scheduleSlotDelete: async (w) => {
    const slotId = await newSlot(w, 6);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, slot_id: slotId } },
      expect: {
        action: 'exam.slot.delete',
        kind: 'exam',
        id: w.examId,
        before: { id: slotId, capacity: 6 },
        after: null,
      },
    };
  },
  scheduleSlotMode: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, slot_mode: 'chosen' } },
    expect: {
      action: 'exam.slot_mode',
      kind: 'exam',
      id: w.examId,
      before: { slot_mode: expect.any(String) },
      after: { slot_mode: 'chosen' },
    },
  }),
  scheduleAssignSlot: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('132'));
    const slotId = await newSlot(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, invitation_ids: [anid], slot_id: slotId } },
      expect: {
        action: 'exam.invitations.slot',
        kind: 'exam',
        id: w.examId,
        before: { invitations: [{ id: anid, slot_id: null }] },
        after: { invitations: [{ id: anid, slot_id: slotId }] },
      },
    };
  },
  scheduleAccommodations: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('132'), 5);
    const window = { start_at: w.t.now(), end_at: w.t.now() + 86_400_000 };
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, invitation_ids: [anid], extra: { mode: 'percent', value: 25 }, window } },
      expect: {
        action: 'exam.invitations.accommodations',
        kind: 'exam',
        id: w.examId,
        before: { invitations: [{ id: anid, extra_mode: 'minutes', extra_minutes: 5, window_start: null }] },
        after: {
          invitations: [
            { id: anid, extra_mode: 'percent', extra_percent: 25, extra_minutes: 0, window_start: window.start_at },
          ],
        },
      },
    };
  },
  scheduleReopen: async (w) => {
    const attemptId = await finishedAttempt(w);
    return {
      as: 'authorA',
      input: { body: { attempt_id: attemptId, reason: 'Power cut in the hall', minutes: 15 } },
      expect: {
        action: 'attempt.reopen',
        kind: 'attempt',
        id: attemptId,
        before: { phase: 3, finish_reason: 'submit' },
        after: { phase: 2, end_at: w.t.now() + 15 * 60_000, minutes: 15, reason: 'Power cut in the hall' },
      },
    };
  },
  similarityRun: async (w) => {
    const questionId = await programmingQuestion(w);
    return {
      input: { body: { exam_id: w.examId, question_id: questionId } },
      expect: {
        action: 'similarity.run',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { question_id: questionId, job_id: expect.any(Number) },
      },
      settle: async (data) => void (await waitForJob(w.t, w.tokens.admin, data.job_id as number)),
    };
  },
  similarityDecide: async (w) => {
    const { pairId } = await similarPair(w);
    return {
      input: { body: { exam_id: w.examId, pair_id: pairId, status: 'confirmed', note: 'same code, same comments' } },
      expect: {
        action: 'similarity.decide',
        kind: 'similarity_pair',
        id: pairId,
        before: { status: 'open', note: '', score: 1 },
        after: { status: 'confirmed', note: 'same code, same comments', score: 1 },
      },
    };
  },
  gradingSettings: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, blind: true, double_marking: false, margin: 1 } },
    expect: {
      action: 'grading.settings',
      kind: 'exam',
      id: w.examId,
      before: { double_marking: false },
      after: { blind: true, double_marking: false, margin: 1 },
    },
  }),
  gradingAssign: async (w) => {
    const staffId = await w.newStaff('grader', w.teamId);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, staff_id: staffId, sections: ['major'] } },
      expect: {
        action: 'grading.assign',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { staff_id: staffId, sections: ['major'] },
      },
    };
  },
  gradingMark: async (w) => {
    const answer = await answerToGrade(w);
    return {
      input: { body: { ...answer, criteria: [2.5, 2, 2.5, 1], comment: 'Isolation thin' } },
      expect: {
        action: 'grading.mark',
        kind: 'attempt',
        id: answer.attempt_id,
        before: { question_id: answer.question_id, points: null },
        after: { question_id: answer.question_id, points: 8, mark: { total: 8, comment: 'Isolation thin' } },
      },
    };
  },
  gradingReconcileMark: async (w) => {
    const answer = await answerToReconcile(w);
    return {
      as: 'authorA',
      input: { body: { ...answer, criteria: [2.5, 2.5, 2.5, 0], comment: 'Durability missing' } },
      expect: {
        action: 'grading.reconcile',
        kind: 'attempt',
        id: answer.attempt_id,
        before: { question_id: answer.question_id, points: null },
        after: { question_id: answer.question_id, points: 7.5, mark: { total: 7.5, reconciling: true } },
      },
    };
  },
  resultsExport: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, format: 'csv', school: 'Tsinghua' } },
    settle: async (data) => void (await waitForJob(w.t, w.tokens.authorA, data.job_id as number)),
    expect: {
      action: 'results.export',
      kind: 'exam',
      id: w.examId,
      before: null,
      after: { job_id: expect.any(Number), format: 'csv', filter: { school: 'Tsinghua' } },
    },
  }),
  gradingKey: async (w) => {
    const questionId = await qaQuestion(w);
    return {
      as: 'authorA',
      // A rubric's wording changes no score, so the re-scoring job leaves no entry of its own.
      input: { body: { exam_id: w.examId, question_id: questionId, key: { rubric: 'The four ACID properties.' } } },
      settle: async (data) => {
        await waitForJob(w.t, w.tokens.authorA, data.job_id as number);
      },
      expect: {
        action: 'grading.key',
        kind: 'exam',
        id: w.examId,
        before: { question_id: questionId },
        after: { question_id: questionId, key: { rubric: 'The four ACID properties.' } },
      },
    };
  },
  webhookSave: () => ({
    input: { body: { url: 'https://ats.example.com/hooks/examhall', secret: 'a-secret-of-sixteen-chars' } },
    expect: {
      action: 'webhook.create',
      kind: 'webhook',
      id: (d) => d.id as number,
      before: null,
      after: { url: 'https://ats.example.com/hooks/examhall', team_id: null, enabled: true },
    },
  }),
  webhookDelete: async (w) => {
    const id = await webhookEndpoint(w);
    return {
      input: { body: { id } },
      expect: {
        action: 'webhook.delete',
        kind: 'webhook',
        id,
        before: { url: 'http://127.0.0.1:9/hook' },
        after: null,
      },
    };
  },
  webhookTest: async (w) => {
    const id = await webhookEndpoint(w);
    return {
      input: { body: { id } },
      expect: { action: 'webhook.test', kind: 'webhook', id, before: null, after: { event: 'ping' } },
    };
  },
  webhookRedeliver: async (w) => {
    const id = await failedDelivery(w);
    return {
      input: { body: { id } },
      expect: {
        action: 'webhook.redeliver',
        kind: 'webhook',
        id: (d) => d.endpoint_id as number,
        before: { delivery_id: id, status: 'failed', attempts: 1 },
        after: { delivery_id: id, status: 'pending', attempts: 0 },
      },
    };
  },
  apiTokenCreate: (w) => ({
    input: { body: { name: 'ATS', team_id: w.teamId } },
    expect: {
      action: 'api_token.create',
      kind: 'api_token',
      id: (d) => (d.api_token as { id: number }).id,
      before: null,
      after: { name: 'ATS', scope: 'read-results', team_id: w.teamId, revoked: false },
    },
  }),
  apiTokenRevoke: async (w) => {
    const id = await apiTokenId(w);
    return {
      input: { body: { id } },
      expect: {
        action: 'api_token.revoke',
        kind: 'api_token',
        id,
        before: { name: 'ATS', revoked: false },
        after: { name: 'ATS', revoked: true },
      },
    };
  },
};
