/**
 * The call world of the tests that run over the whole route list (routes/access.test.ts, routes/audit.test.ts and
 * others): two teams, team A's exam with an attempt in progress, and staff of each role; and how they make calls.
 */
import type { CallDef, StaffRole } from '@examhall/contract';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { multipart } from './multipart.js';
import { enterExam } from './checks.js';
import { body, createTestApp, TEST_ADMIN, type TestApp, type TestAppOptions } from './app.js';
import type { TestDialect } from './db.js';

/** A single-choice bank question body. */
export const BANK_SINGLE = {
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
    question: BANK_SINGLE,
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

/**
 * Registers in the enclosing `describe` a test app on `dialect` with the call world built on it, started before all
 * its tests and closed after them. Answers the world, whose fields (`t` among them) are filled in by the time a
 * test, or a hook registered after this call, runs.
 */
export function worldApp(dialect: TestDialect, opts: TestAppOptions = {}): CallWorld {
  const world = {} as CallWorld;
  beforeAll(async () => {
    world.t = await createTestApp(dialect, opts);
    Object.assign(world, await buildWorld(world.t));
  });
  afterAll(async () => world.t?.close());
  return world;
}
