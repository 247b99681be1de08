/**
 * Named builders for tests that put people through the demo exam over HTTP: the app with its admin and the seeded
 * exam, the published version's questions, candidates who enter, save answers and submit, graders assigned to the
 * exam, staff members of a team, and two teams with an author each.
 */
import { randomUUID } from 'node:crypto';
import { api, type CallDef, type ExamResult, type StaffRole } from '@examhall/contract';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { body, createTestApp, TEST_ADMIN, type TestApp, type TestAppOptions } from './app.js';
import { enterExam } from './checks.js';
import type { TestDialect } from './db.js';
import { sendAs, staffCalls, uploadAs, type SentCall } from './staffCalls.js';

/** A test app with its first admin logged in and the demo exam seeded. */
export interface SeededExam {
  t: TestApp;
  /** The first admin's token. */
  admin: string;
  /** The demo exam (published, open now). */
  examId: number;
}

/** Starts a test app, logs the first admin in and seeds the demo exam (invited to 13800138000). */
export async function seededExam(dialect: TestDialect, opts: TestAppOptions = {}): Promise<SeededExam> {
  const t = await createTestApp(dialect, opts);
  const admin = await t.loginStaff('admin');
  const { examId } = await t.seed('13800138000');
  return { t, admin, examId };
}

/** The app of `adminApp`, with the admin's catalogue calls (`staffCalls`). */
export type AdminApp = SeededExam & ReturnType<typeof staffCalls>;

/**
 * Registers in the enclosing `describe` a test app on `dialect` with its first admin logged in and the demo exam
 * seeded (`seed: false`: none, and `examId` stays 0), started before all its tests (`each`: before each test) and
 * closed after them. Answers a holder whose `t`, `admin` and `examId` are filled in by the time a test, or a hook
 * registered after this call, runs; its `call` and `ok` send catalogue calls as the admin.
 */
export function adminApp(
  dialect: TestDialect,
  opts: { each?: boolean; seed?: boolean; app?: TestAppOptions } = {},
): AdminApp {
  const [before, after] = opts.each ? [beforeEach, afterEach] : [beforeAll, afterAll];
  const holder = { examId: 0 } as AdminApp;
  before(async () => {
    if (opts.seed === false) {
      holder.t = await createTestApp(dialect, opts.app);
      holder.admin = await holder.t.loginStaff('admin');
    } else {
      Object.assign(holder, await seededExam(dialect, opts.app));
    }
  });
  after(async () => holder.t?.close());
  return Object.assign(
    holder,
    staffCalls(
      () => holder.t,
      () => holder.admin,
    ),
  );
}

/** The app of `candidateApp`. */
export interface CandidateApp {
  t: TestApp;
  /** The demo exam (published, open now). */
  examId: number;
  /** The candidate's invitation to it. */
  anid: number;
  /** The candidate's token ('' with `login: false`). */
  token: string;
}

/**
 * Registers in the enclosing `describe` a test app on `dialect` with the demo exam seeded, invited to `phone`
 * (default 13800138000), and that candidate logged in (`login: false`: not), started before all its tests (`each`:
 * before each test) and closed after them. `realClock`: the app's clock is moved to the real time first (SigV4
 * signers read the real clock; the store refuses requests signed 15 minutes away from its own). Answers a holder whose fields are filled in
 * by the time a test, or a hook registered after this call, runs.
 */
export function candidateApp(
  dialect: TestDialect,
  opts: { each?: boolean; phone?: string; login?: boolean; realClock?: boolean; app?: TestAppOptions } = {},
): CandidateApp {
  const [before, after] = opts.each ? [beforeEach, afterEach] : [beforeAll, afterAll];
  const phone = opts.phone ?? '13800138000';
  const holder = { token: '' } as CandidateApp;
  before(async () => {
    holder.t = await createTestApp(dialect, opts.app);
    if (opts.realClock) holder.t.advance(Date.now() - holder.t.now());
    Object.assign(holder, await holder.t.seed(phone));
    holder.token = opts.login === false ? '' : await holder.t.loginCandidate(phone);
  });
  after(async () => holder.t?.close());
  return holder;
}

let phoneSeq = 0;
/** An 11-digit phone starting with `prefix` that no other builder call made in this process. */
export function nextPhone(prefix: string): string {
  phoneSeq += 1;
  return `${prefix}${String(phoneSeq).padStart(11 - prefix.length, '0')}`;
}

/** The id of the question of `kind` in the exam's published version. */
export async function questionOfKind(t: TestApp, examId: number, kind: string): Promise<number> {
  const row = await t.db.handle.db
    .selectFrom('questions')
    .innerJoin('exams', 'exams.published_version_id', 'questions.version_id')
    .select('questions.id')
    .where('exams.id', '=', examId)
    .where('questions.kind', '=', kind)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The published version's questions by kind; evaluation items by `evaluation:<dimension>`. */
export async function questionsByKind(t: TestApp, examId: number): Promise<Map<string, number>> {
  const rows = await t.db.handle.db
    .selectFrom('questions')
    .innerJoin('exams', 'exams.published_version_id', 'questions.version_id')
    .select(['questions.id', 'questions.kind', 'questions.content'])
    .where('exams.id', '=', examId)
    .execute();
  return new Map(
    rows.map((r) => [
      r.kind === 'evaluation' ? `evaluation:${(JSON.parse(r.content) as { dimension: string }).dimension}` : r.kind,
      r.id,
    ]),
  );
}

/** A candidate in the exam: their attempt, token, phone and invitation. */
export interface EnteredCandidate {
  attemptId: number;
  token: string;
  phone: string;
  anid: number;
}

/** Who enters the exam in `enterAsNew`. */
export interface NewCandidate {
  /** Their phone (default: `nextPhone(phonePrefix)`). */
  phone?: string;
  /** The prefix of a generated phone (default 1371). */
  phonePrefix?: string;
  /** Written to the candidate's record before entering. */
  profile?: { name?: string; school?: string; major?: string };
}

/** Invites a new candidate to the exam, logs them in, writes their profile, and enters (passing the checks). */
export async function enterAsNew(t: TestApp, examId: number, who: NewCandidate = {}): Promise<EnteredCandidate> {
  const phone = who.phone ?? nextPhone(who.phonePrefix ?? '1371');
  const anid = await t.invite(examId, phone);
  const token = await t.loginCandidate(phone);
  if (who.profile !== undefined) {
    await t.db.handle.db.updateTable('candidates').set(who.profile).where('phone', '=', phone).execute();
  }
  const res = await enterExam(t, token, examId, anid);
  expect(res.statusCode, res.body).toBe(200);
  return { attemptId: body<{ attempt: { id: number } }>(res).data.attempt.id, token, phone, anid };
}

/** Saves `answers` (by question id, in order, seq 1, 2, …) as the candidate, expecting each acknowledged. */
export async function saveAnswers(
  t: TestApp,
  token: string,
  examId: number,
  answers: Record<number, unknown>,
): Promise<void> {
  let seq = 0;
  for (const [id, answer] of Object.entries(answers)) {
    seq += 1;
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/answer/answer?auth=${token}`,
      payload: { exam_id: examId, subject_id: Number(id), answer, client_id: randomUUID(), seq, changed_at: t.now() },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
}

/** Submits the candidate's attempt, expecting success; answers their result. */
export async function finishExam(t: TestApp, token: string, examId: number): Promise<ExamResult> {
  const done = await t.app.inject({
    method: 'POST',
    url: `/api/monitor/finish-exam?auth=${token}`,
    payload: { exam_id: examId },
  });
  expect(done.statusCode, done.body).toBe(200);
  expect(body(done).status).toBe('success');
  return body<ExamResult>(done).data;
}

/** A candidate who took the exam; `result` is null when they did not submit. */
export interface TakenExam extends EnteredCandidate {
  result: ExamResult | null;
}

/** A new candidate who enters the exam, saves `answers` (by question id) and, unless `submit` is false, submits. */
export async function takeExam(
  t: TestApp,
  examId: number,
  answers: Record<number, unknown>,
  opts: NewCandidate & { submit?: boolean } = {},
): Promise<TakenExam> {
  const entered = await enterAsNew(t, examId, opts);
  await saveAnswers(t, entered.token, examId, answers);
  const result = opts.submit === false ? null : await finishExam(t, entered.token, examId);
  return { ...entered, result };
}

/** A staff account made by the admin and logged in. */
export interface StaffMember {
  id: number;
  token: string;
  name: string;
  phone: string;
}

/** A new staff member of `role` (in `teamId` when given), made by the admin through the staff call and logged in. */
export async function staffMember(
  t: TestApp,
  admin: string,
  role: StaffRole,
  opts: { name?: string; teamId?: number; phonePrefix?: string } = {},
): Promise<StaffMember> {
  const phone = nextPhone(opts.phonePrefix ?? '1330000');
  const name = opts.name ?? `${role} ${phoneSeq}`;
  const { ok } = staffCalls(
    () => t,
    () => admin,
  );
  const created = await ok<{ id: number }>(api.staffCreate, {
    phone,
    area_code: '86',
    name,
    role,
    password: TEST_ADMIN.password,
    ...(opts.teamId !== undefined ? { team_id: opts.teamId } : {}),
  });
  const token = (await t.services.staffLogin.login(phone, TEST_ADMIN.password, { ip: '127.0.0.1' })).token;
  return { id: created.id, token, name, phone };
}

/** A new grader named `name`, assigned to the whole exam (every section) unless `assign` is false. */
export async function examGrader(
  t: TestApp,
  admin: string,
  examId: number,
  name: string,
  assign = true,
): Promise<StaffMember> {
  const grader = await staffMember(t, admin, 'grader', { name });
  if (assign) {
    const { ok } = staffCalls(
      () => t,
      () => admin,
    );
    await ok(api.gradingAssign, { exam_id: examId, staff_id: grader.id, sections: [] });
  }
  return grader;
}

/** Teams A and B with an author each. */
export interface TwoTeams {
  admin: string;
  /** `loginStaff('author')`, moved into team A. */
  authorA: string;
  /** Author B (13600000099), made by the admin in team B. */
  authorB: string;
  teamA: number;
  teamB: number;
}

/** Makes teams A and B and an author of each. */
export async function twoTeams(t: TestApp): Promise<TwoTeams> {
  const admin = await t.loginStaff('admin');
  const authorA = await t.loginStaff('author');
  const teamA = await t.team('A');
  const teamB = await t.team('B');
  await t.db.handle.db.updateTable('staff').set({ team_id: teamA }).where('role', '=', 'author').execute();
  const made = await t.app.inject({
    method: 'POST',
    url: '/api/admin/staff',
    headers: { authorization: `Bearer ${admin}` },
    payload: {
      phone: '13600000099',
      area_code: '86',
      name: 'author B',
      role: 'author',
      password: 'author-b-pass',
      team_id: teamB,
    },
  });
  expect(made.statusCode, made.body).toBe(200);
  await t.db.handle.db.updateTable('staff').set({ team_id: teamB }).where('phone', '=', '13600000099').execute();
  const authorB = (await t.services.staffLogin.login('13600000099', 'author-b-pass', { ip: '127.0.0.1' })).token;
  return { admin, authorA, authorB, teamA, teamB };
}

/** The app of `twoTeamsApp`, with catalogue calls as staff (author A's token unless one is given). */
export interface TwoTeamsApp extends TwoTeams {
  t: TestApp;
  /** `sendAs` on this app. */
  send<T>(c: CallDef, input: Parameters<typeof sendAs>[2], token?: string): Promise<SentCall<T>>;
  /** `uploadAs` on this app. */
  upload<T>(
    c: CallDef,
    fields: Record<string, string>,
    name: string,
    data: Buffer,
    token?: string,
  ): Promise<SentCall<T>>;
}

/**
 * Registers in the enclosing `describe` a test app on `dialect` with `twoTeams` made on it, started before all its
 * tests and closed after them. Answers a holder whose fields are filled in by the time a test, or a hook registered
 * after this call, runs.
 */
export function twoTeamsApp(dialect: TestDialect): TwoTeamsApp {
  const holder = {
    send: (c, input, token = holder.authorA) => sendAs(holder.t, c, input, token),
    upload: (c, fields, name, data, token = holder.authorA) => uploadAs(holder.t, c, fields, name, data, token),
  } as TwoTeamsApp;
  beforeAll(async () => {
    holder.t = await createTestApp(dialect);
    Object.assign(holder, await twoTeams(holder.t));
  });
  afterAll(async () => holder.t?.close());
  return holder;
}

/** Starts the candidate's attempt with no device checks (an exam that asks none); answers its id. */
export async function startWithoutChecks(t: TestApp, token: string, examId: number, anid: number): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/monitor/start-exam?auth=${token}`,
    payload: { exam_id: examId, anid },
  });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ attempt: { id: number } }>(res).data.attempt.id;
}

/** Merges `flags` into the exam's stored settings (the catalog keeps the row a few seconds: callers move the clock). */
export async function setExamSettings(t: TestApp, examId: number, flags: Record<string, unknown>): Promise<void> {
  const exam = await t.db.handle.db
    .selectFrom('exams')
    .select('settings')
    .where('id', '=', examId)
    .executeTakeFirstOrThrow();
  const settings = { ...(JSON.parse(exam.settings) as object), ...flags };
  await t.db.handle.db
    .updateTable('exams')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', examId)
    .execute();
}

/** The id of the invitation of `phone` to the exam. */
export async function invitationOf(t: TestApp, examId: number, phone: string): Promise<number> {
  const row = await t.db.handle.db
    .selectFrom('invitations')
    .select('id')
    .where('exam_id', '=', examId)
    .where('phone', '=', phone)
    .executeTakeFirstOrThrow();
  return row.id;
}
