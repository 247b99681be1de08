/**
 * Every periodic task reads what changed or is due through an index, never a whole table that grows with candidates
 * or time. The reminder sweep once held the one process for 25 s a minute at 19,000 candidates by reading every
 * attempt for each invitation; this test would have named it. The tasks are the ones the app hands its scheduler
 * (a new task is covered without a change here); each runs once on a test app whose growing tables hold rows in the
 * states the tasks look for, every statement it sends is kept, and the database's own planner is asked how it runs
 * each one (as repositories/attemptsByInvitation.test.ts does for single queries). On PostgreSQL, with the tables
 * analyzed and sequential scans priced out, a sequential scan means no index serves the statement. (On SQLite the few
 * request-path reads of db/hotQuery.ts run on the connection directly, past Kysely's log: PostgreSQL sees them.)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql, type Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { ResultsSeedRepository } from '../repositories/resultsSeed.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects, type TestDialect } from '../test/db.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import type { PeriodicScheduler, PeriodicTask } from './types.js';

/**
 * Tables whose size follows what staff make (exams and their frozen parts, the bank, accounts, settings), not the
 * number of candidates or the time the server has run: a read of all of them is no cost that grows. Every other
 * table counts as growing, so a table added later is watched until it is named here.
 */
const STAFF_SIZED: ReadonlySet<string> = new Set<keyof Database | 'kysely_migration' | 'kysely_migration_lock'>([
  'app_settings',
  'teams',
  'staff',
  'staff_recovery_codes',
  'exams',
  'exam_versions',
  'exam_sections',
  'questions',
  'exam_staff',
  'exam_sms',
  'exam_slots',
  'exam_grading',
  'grader_sections',
  'bank_folders',
  'bank_questions',
  'bank_question_tags',
  // the questions of imports under way, a file's worth each, gone once published
  'bank_import_rows',
  'positions',
  'webhook_endpoints',
  'api_tokens',
  'item_flags',
  'similarity_runs',
  'kysely_migration',
  'kysely_migration_lock',
]);

/** True when `table` grows with candidates or time. */
const growing = (table: string) => !STAFF_SIZED.has(table);

/** A scheduler that starts nothing and keeps the tasks it is given, for the test to run by hand. */
class HeldTasks implements PeriodicScheduler {
  tasks: readonly PeriodicTask[] = [];
  start(tasks: readonly PeriodicTask[]): void {
    this.tasks = tasks;
  }
  async close(): Promise<void> {}
}

/** A statement some task sent. */
interface Sent {
  task: string;
  query: CompiledQuery;
}

/** A full read of a growing table in a statement's plan. */
interface FullScan {
  task: string;
  table: string;
  step: string;
  sql: string;
}

/** The tables a statement names under another name (`"attempts" as "a"`), by that name. */
function aliases(statement: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of statement.matchAll(/"(\w+)" as "(\w+)"/g)) out.set(m[2]!, m[1]!);
  return out;
}

/** What the test knows of the database's indexes: partial ones (they hold only what is due) and each one's first column. */
interface Indexes {
  partial: Set<string>;
  /** Each index's first column (PostgreSQL). */
  leading: Map<string, string>;
  /** Each index's table (PostgreSQL's bitmap index scans name only the index). */
  table: Map<string, string>;
}

/**
 * SQLite's plan lines that read a whole table (or a whole index of it), as the table and the line. A walk of a
 * partial index reads only the rows it holds (the judge's unfinished runs), not the table.
 */
function sqliteFullScans(plan: string[], statement: string, indexes: Indexes): { table: string; step: string }[] {
  const names = aliases(statement);
  const out: { table: string; step: string }[] = [];
  for (const line of plan.map((l) => l.trim())) {
    // "SCAN t", "SCAN t USING INDEX i", "SCAN t USING COVERING INDEX i": every row of t (a SEARCH reads a range).
    const m = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?(?= |$)/.exec(line);
    if (!m || m[1] === 'CONSTANT' || (m[2] && indexes.partial.has(m[2]))) continue;
    out.push({ table: names.get(m[1]!) ?? m[1]!, step: line });
  }
  return out;
}

/** A node of PostgreSQL's JSON plan. */
interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PgNode[];
}

/**
 * PostgreSQL's plan nodes that read a whole table: a sequential scan, or an index read end to end, with no condition
 * or none on its first column (a partial index holds only what is due, and is let be).
 */
function postgresFullScans(
  node: PgNode,
  indexes: Indexes,
  out: { table: string; step: string }[] = [],
): { table: string; step: string }[] {
  const type = node['Node Type'];
  const table = node['Relation Name'];
  const index = node['Index Name'];
  if (table && (type === 'Seq Scan' || type === 'Parallel Seq Scan')) {
    out.push({ table, step: `${type} on ${table}${node.Filter ? ` (filter ${node.Filter})` : ''}` });
  } else if (index && /Index (Only )?Scan/.test(type) && !indexes.partial.has(index)) {
    const cond = node['Index Cond'];
    const lead = indexes.leading.get(index);
    if (!cond || (lead && !new RegExp(`\\(${lead} `).test(cond))) {
      const on = table ?? indexes.table.get(index) ?? index;
      out.push({ table: on, step: `${type} using ${index} on ${on} (${cond ?? 'no condition'})` });
    }
  }
  for (const child of node.Plans ?? []) postgresFullScans(child, indexes, out);
  return out;
}

const redisHere = await requirePart('redis');

describe.each(await testedDialects())('periodic tasks on %s', (dialect: TestDialect) => {
  const held = new HeldTasks();
  const runningTask = new AsyncLocalStorage<string>();
  const sent: Sent[] = [];
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      // A period above 0 makes the app hand its tasks over; the held scheduler never fires them.
      sweepIntervalMs: 60_000,
      // With Redis the console's jobs run on BullMQ, whose redelivery sweep reads the job table (in-process it has
      // nothing to do).
      jobs: {
        scheduler: held,
        ...(redisHere ? { redisUrl: TEST_REDIS_URL, prefix: `examhall-test-${randomUUID()}:` } : {}),
      },
      log: (event) => {
        const task = runningTask.getStore();
        if (task !== undefined) sent.push({ task, query: event.query });
      },
    });
    await seedGrowingTables(t);
    // The planner reads the tables' figures as autovacuum keeps them in production (SQLite runs without any, here as
    // there).
    if (dialect === 'postgres') await sql`analyze`.execute(t.db.handle.db);
  }, 120_000);
  afterAll(async () => t?.close());

  /** The database's indexes as the plans are read with them. */
  async function indexesOf(): Promise<Indexes> {
    const out: Indexes = { partial: new Set(), leading: new Map(), table: new Map() };
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ name: string; sql: string | null }>`
        select name, sql from sqlite_master where type = 'index'`.execute(t.db.handle.db);
      for (const r of rows) if (r.sql && /\bwhere\b/i.test(r.sql)) out.partial.add(r.name);
      return out;
    }
    const { rows } = await sql<{ index: string; table: string; lead: string | null; partial: boolean }>`
      select c.relname as index, r.relname as table, a.attname as lead, i.indpred is not null as partial
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_class r on r.oid = i.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
      where n.nspname = current_schema()`.execute(t.db.handle.db);
    for (const r of rows) {
      out.table.set(r.index, r.table);
      if (r.lead) out.leading.set(r.index, r.lead);
      if (r.partial) out.partial.add(r.index);
    }
    return out;
  }

  /** The plan's full reads of growing tables. */
  async function fullScans(query: CompiledQuery, indexes: Indexes): Promise<{ table: string; step: string }[]> {
    if (dialect === 'sqlite') {
      const rows = await t.db.handle.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return sqliteFullScans(
        rows.rows.map((r) => r.detail),
        query.sql,
        indexes,
      );
    }
    return t.db.handle.db.transaction().execute(async (tx) => {
      // Sequential scans priced out: one is taken only where no index serves the statement.
      await sql`set local enable_seqscan = off`.execute(tx);
      const rows = await tx.executeQuery<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(
        CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
      );
      return postgresFullScans(rows.rows[0]!['QUERY PLAN'][0].Plan, indexes);
    });
  }

  it('every statement of every task reads growing tables through an index', async () => {
    const names = held.tasks.map((task) => task.name);
    expect(names).toContain('attempts.sweep-overdue');
    expect(new Set(names).size).toBe(names.length);
    for (const task of held.tasks) await runningTask.run(task.name, () => task.run());

    const indexes = await indexesOf();
    const found: FullScan[] = [];
    const seen = new Set<string>();
    for (const { task, query } of sent) {
      const key = `${task}\n${query.sql}`;
      if (seen.has(key) || !/^\s*(select|insert|update|delete|with)\b/i.test(query.sql)) continue;
      seen.add(key);
      for (const scan of await fullScans(query, indexes)) {
        if (growing(scan.table)) found.push({ task, ...scan, sql: query.sql });
      }
    }
    const report = found.map((f) => `${f.task}: full read of ${f.table} (${f.step}) in\n  ${f.sql}`).join('\n\n');
    expect(report, `${found.length} full reads of growing tables`).toBe('');
    // Each task that reads at all was seen reading: the rows below put every sweep to work.
    const quiet = names.filter((name) => !sent.some((s) => s.task === name));
    expect(quiet.filter((name) => name !== 'jobs.redeliver' || redisHere)).toEqual([]);
  }, 120_000);
});

/** Rows of history per growing table: what the sweeps must not read again and again. */
const HISTORY = 2_000;

/** Rows per insert statement (within both databases' bound parameters). */
const CHUNK = 200;

/** Inserts rows in chunks. */
async function insertAll<T extends keyof Database>(db: Db, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
  }
}

/**
 * The settled past in every growing table, most of each table as on a server that has run a while: an exam's finished
 * attempts with their answers, scores and records, texts sent, deliveries made, jobs done, runs judged, frames checked.
 */
async function seedHistory(t: TestApp, versionId: number, questionId: number): Promise<void> {
  const db = t.db.handle.db;
  const now = t.now();
  const past = now - 5 * 86_400_000;
  // An exam held last week: reads of the open exam's rows must not find its rows in their way.
  const { id: examId } = await db
    .insertInto('exams')
    .values({
      name: 'Last week',
      description: '',
      mode: 1,
      time_minutes: 60,
      start_at: past - 86_400_000,
      end_at: past + 86_400_000,
      settings: '{}',
      created_at: past - 86_400_000,
      status: 'archived',
      draft: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const seed = new ResultsSeedRepository(db);
  const index = Array.from({ length: HISTORY }, (_, i) => i);
  const phones = index.map((i) => `1361${String(i).padStart(7, '0')}`);
  const candidateIds = await seed.candidates(
    phones.map((phone) => ({
      area_code: '86',
      phone,
      name: phone,
      school: null,
      major: null,
      degree: null,
      graduation_year: null,
      created_at: past,
      last_login_at: past,
    })),
  );
  const invitationIds = await seed.invitations(
    phones.map((phone) => ({ exam_id: examId, area_code: '86', phone, extra_minutes: 0, created_at: past })),
  );
  const attemptIds = await seed.attempts(
    index.map((i) => ({
      exam_id: examId,
      candidate_id: candidateIds[i]!,
      invitation_id: invitationIds[i]!,
      mode: 1,
      phase: 3,
      created_at: past,
      started_at: past,
      end_at: past + 3_600_000,
      finished_at: past + 3_600_000,
      finish_reason: 'submit',
      score: 1,
      max_score: 10,
      version_id: versionId,
      phone_seen_at: past + 3_600_000,
      last_seen_at: past + 3_600_000,
    })),
  );
  await seed.answers(
    attemptIds.map((id) => ({
      attempt_id: id,
      question_id: questionId,
      value: '"A"',
      version: 1,
      seq: 1,
      saved_at: past,
    })),
  );
  await seed.scores(
    attemptIds.map((id) => ({
      attempt_id: id,
      question_id: questionId,
      exam_id: examId,
      source: 'auto',
      points: 1,
      max: 10,
      updated_at: past,
    })),
  );
  const grader = await db
    .insertInto('staff')
    .values({
      area_code: '86',
      phone: '13600000099',
      name: 'Grader',
      role: 'grader',
      password_hash: '',
      disabled: 0,
      created_at: past,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertAll(
    db,
    'grading_marks',
    attemptIds.map((id) => ({
      attempt_id: id,
      question_id: questionId,
      exam_id: examId,
      grader_id: grader.id,
      criteria: '[1]',
      total: 1,
      comment: '',
      reconciling: 0,
      created_at: past,
    })),
  );
  await insertAll(
    db,
    'answer_events',
    attemptIds.map((id) => ({
      attempt_id: id,
      question_id: questionId,
      client_id: `h-${id}`,
      seq: 1,
      event: null,
      value: '"A"',
      version: 1,
      changed_at: past,
      received_at: past,
    })),
  );
  await insertAll(
    db,
    'risk_records',
    attemptIds.map((id) => ({
      attempt_id: id,
      risk: 1,
      category: 1,
      trigger_time: past,
      detail: '',
      image_key: null,
      client_id: `h-${id}`,
      prev_hash: '',
      hash: `h-${id}`,
      created_at: past,
    })),
  );
  await insertAll(
    db,
    'sms_messages',
    index.map((i) => ({
      invitation_id: invitationIds[i]!,
      exam_id: examId,
      area_code: '86',
      phone: phones[i]!,
      purpose: 'invitation',
      dedupe_key: 'invitation',
      body: 'text',
      state: 'sent',
      last_error: null,
      next_try_at: past,
      lease_until: null,
      created_at: past,
      sent_at: past,
      created_by: null,
    })),
  );
  await insertAll(
    db,
    'judge_runs',
    attemptIds.map((id) => ({
      attempt_id: id,
      question_id: questionId,
      job_id: `h-${id}`,
      mode: 'submit',
      language: 'cpp',
      source: '',
      input: null,
      client_id: `h-${id}`,
      created_at: past,
      finished_at: past,
      verdict: 'AC',
      passed: 1,
      total: 1,
      result: null,
    })),
  );
  await insertAll(
    db,
    'face_checks',
    attemptIds.map((id, i) => ({
      attempt_id: id,
      source: 'sampled',
      record_id: 1_000_000 + i,
      image_key: `h/${id}.jpg`,
      browser_finding: null,
      status: 'done',
      lease_until: null,
      faces: 1,
      phone_score: 0,
      server_finding: null,
      agrees: null,
      result_record_id: null,
      created_at: past,
      checked_at: past,
    })),
  );
  await insertAll(
    db,
    'job',
    index.map(() => ({
      kind: 'no_such_kind',
      payload: '{}',
      owner_staff_id: null,
      team_id: null,
      exam_id: null,
      state: 'done',
      progress_phase: null,
      cursor: null,
      result: null,
      error_code: null,
      error_message: null,
      locked_by: null,
      lease_until: null,
      request_id: null,
      created_at: past,
      started_at: past,
      finished_at: past,
    })),
  );
  await insertAll(
    db,
    'staff_login_tries',
    phones.map((phone) => ({ phone, tries: 1, window_ends: now + 60_000 })),
  );
  const endpoint = await db
    .insertInto('webhook_endpoints')
    .values({
      url: 'http://127.0.0.1:9/history',
      secret: 'secret',
      team_id: null,
      enabled: 0,
      created_by: null,
      created_at: past,
      updated_at: past,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertAll(
    db,
    'webhook_events',
    attemptIds.map((id) => ({
      event: 'attempt.scored',
      attempt_id: id,
      exam_id: examId,
      score: 1,
      max_score: 10,
      body: '{}',
      created_at: past,
    })),
  );
  const events = await db.selectFrom('webhook_events').select('id').where('body', '=', '{}').execute();
  await insertAll(
    db,
    'webhook_deliveries',
    events.map((e) => ({
      event_id: e.id,
      endpoint_id: endpoint.id,
      status: 'delivered',
      next_at: null,
      lease_until: null,
      last_status: 200,
      delivered_at: past,
      created_at: past,
      updated_at: past,
    })),
  );
}

/**
 * Rows in every growing table, in the states each sweep looks for: attempts overdue, with a phone gone quiet and
 * finished; invitations with a reminder due; texts queued; webhook deliveries due and old; jobs lost; judge runs
 * unfinished; face checks pending; login tries long ended; and the rest of each table's kinds around them.
 */
async function seedGrowingTables(t: TestApp): Promise<void> {
  const db = t.db.handle.db;
  const now = t.now();
  const { examId } = await t.seed();
  const exam = await db
    .selectFrom('exams')
    .select('published_version_id')
    .where('id', '=', examId)
    .executeTakeFirstOrThrow();
  const versionId = exam.published_version_id!;
  const questions = await db
    .selectFrom('questions')
    .select(['id', 'kind'])
    .where('version_id', '=', versionId)
    .orderBy('id')
    .execute();
  const choice = questions.find((q) => q.kind !== 'programming')!;
  await seedHistory(t, versionId, choice.id);
  await db
    .insertInto('exam_sms')
    .values({
      exam_id: examId,
      invitation_template: '{name}: {exam} {link}',
      reminder_template: '{exam} {start}',
      reminder_minutes: '[60]',
      updated_at: now,
      updated_by: null,
    })
    .execute();

  const states = ['overdue', 'quiet-phone', 'open', 'finished', 'reminder', 'monitor'] as const;
  const attemptIds: Record<(typeof states)[number], number[]> = {
    overdue: [],
    'quiet-phone': [],
    open: [],
    finished: [],
    reminder: [],
    monitor: [],
  };
  let n = 0;
  for (const state of states) {
    for (let i = 0; i < 4; i++, n++) {
      const phone = `1370000${String(n).padStart(4, '0')}`;
      const candidate = await db
        .insertInto('candidates')
        .values({
          area_code: '86',
          phone,
          name: `Candidate ${n}`,
          school: null,
          major: null,
          degree: null,
          graduation_year: null,
          created_at: now,
          last_login_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const invitation = await db
        .insertInto('invitations')
        .values({
          exam_id: examId,
          area_code: '86',
          phone,
          extra_minutes: 0,
          created_at: now - 3 * 3_600_000,
          // A personal window opening in half an hour: the 60-minute reminder is due and not yet sent.
          ...(state === 'reminder' ? { window_start: now + 1_800_000, window_end: now + 7_200_000 } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (state === 'reminder') continue;
      const phase = state === 'finished' ? 3 : state === 'monitor' ? 1 : 2;
      const attempt = await db
        .insertInto('attempts')
        .values({
          exam_id: examId,
          candidate_id: candidate.id,
          invitation_id: invitation.id,
          mode: 1,
          phase,
          created_at: now - 3_600_000,
          started_at: phase === 1 ? null : now - 3_600_000,
          end_at: state === 'overdue' || state === 'finished' ? now - 1_000 : now + 3_600_000,
          finished_at: state === 'finished' ? now - 1_000 : null,
          finish_reason: state === 'finished' ? 'submit' : null,
          score: state === 'finished' ? 1 : null,
          max_score: state === 'finished' ? 10 : null,
          version_id: versionId,
          // Seen in the sweep's window: the phone went quiet since the last sweep.
          phone_seen_at: state === 'quiet-phone' ? now - 20_000 : state === 'open' ? now : null,
          last_seen_at: phase === 2 ? now : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      attemptIds[state].push(attempt.id);
      await db
        .insertInto('answers')
        .values({ attempt_id: attempt.id, question_id: choice.id, value: '"A"', version: 1, seq: 1, saved_at: now })
        .execute();
      await db
        .insertInto('answer_events')
        .values({
          attempt_id: attempt.id,
          question_id: choice.id,
          client_id: `e-${attempt.id}`,
          seq: 1,
          event: null,
          value: '"A"',
          version: 1,
          changed_at: now,
          received_at: now,
        })
        .execute();
      const risk = await db
        .insertInto('risk_records')
        .values({
          attempt_id: attempt.id,
          risk: 1,
          category: 1,
          trigger_time: now,
          detail: '',
          image_key: `exam/${attempt.id}/frame.jpg`,
          client_id: `r-${attempt.id}`,
          prev_hash: '',
          hash: `h-${attempt.id}`,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // A frame to check whose picture is not (yet) in the store: the check is tried and put back.
      await db
        .insertInto('face_checks')
        .values({
          attempt_id: attempt.id,
          source: 'flagged',
          record_id: risk.id,
          image_key: `exam/${attempt.id}/frame.jpg`,
          browser_finding: 'faces',
          status: state === 'finished' ? 'done' : 'pending',
          lease_until: null,
          faces: null,
          phone_score: null,
          server_finding: null,
          agrees: null,
          result_record_id: null,
          created_at: now - 60_000,
          checked_at: null,
        })
        .execute();
      // A run the queue lost: unfinished long after it was made (a choice question: it cannot be judged again).
      await db
        .insertInto('judge_runs')
        .values({
          attempt_id: attempt.id,
          question_id: choice.id,
          job_id: `lost-${attempt.id}`,
          mode: 'submit',
          language: 'cpp',
          source: 'int main() {}',
          input: null,
          client_id: `j-${attempt.id}`,
          created_at: now - 3_600_000,
          finished_at: state === 'finished' ? now : null,
          verdict: state === 'finished' ? 'AC' : null,
          passed: null,
          total: 1,
          result: null,
        })
        .execute();
      await db
        .insertInto('sms_messages')
        .values({
          invitation_id: invitation.id,
          exam_id: examId,
          area_code: '86',
          phone,
          purpose: 'invitation',
          dedupe_key: 'invitation',
          body: 'text',
          state: state === 'finished' ? 'sent' : state === 'open' ? 'sending' : 'queued',
          last_error: null,
          next_try_at: now - 1_000,
          lease_until: state === 'open' ? now - 1_000 : null,
          created_at: now - 60_000,
          sent_at: state === 'finished' ? now - 30_000 : null,
          created_by: null,
        })
        .execute();
    }
  }

  // Webhooks: an endpoint (its loopback address is refused when posting, so nothing leaves the machine), deliveries
  // due now and a log older than it keeps.
  const endpoint = await db
    .insertInto('webhook_endpoints')
    .values({
      url: 'http://127.0.0.1:9/hook',
      secret: 'secret',
      team_id: null,
      enabled: 1,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const long = now - 400 * 86_400_000;
  for (const [i, attemptId] of [...attemptIds.finished, ...attemptIds.open].entries()) {
    const old = i % 2 === 0;
    const event = await db
      .insertInto('webhook_events')
      .values({
        event: 'attempt.scored',
        attempt_id: attemptId,
        exam_id: examId,
        score: 1,
        max_score: 10,
        body: null,
        created_at: old ? long : now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('webhook_deliveries')
      .values({
        event_id: event.id,
        endpoint_id: endpoint.id,
        status: old ? 'delivered' : 'pending',
        next_at: old ? null : now - 1_000,
        lease_until: null,
        last_status: old ? 200 : null,
        delivered_at: old ? long : null,
        created_at: old ? long : now,
        updated_at: old ? long : now,
      })
      .execute();
  }
  // An event of the old log no delivery refers to, with a later one for its attempt: the pruning removes it.
  await db
    .insertInto('webhook_events')
    .values({
      event: 'attempt.scored',
      attempt_id: attemptIds.finished[0]!,
      exam_id: examId,
      score: 0,
      max_score: 10,
      body: null,
      created_at: long - 1,
    })
    .execute();

  // Jobs: done ones, and one whose runner's lease ran out long ago (the queue lost it).
  for (const [i, state] of ['done', 'done', 'failed', 'running'].entries()) {
    await db
      .insertInto('job')
      .values({
        kind: 'no_such_kind',
        payload: '{}',
        owner_staff_id: null,
        team_id: null,
        exam_id: null,
        state,
        progress_phase: null,
        cursor: null,
        result: null,
        error_code: null,
        error_message: null,
        locked_by: state === 'running' ? 'gone' : null,
        lease_until: state === 'running' ? now - 3_600_000 : null,
        request_id: null,
        created_at: now - 3_600_000 - i,
        started_at: null,
        finished_at: state === 'running' ? null : now,
      })
      .execute();
  }

  // Staff login tries: some whose window ended long ago, one still counting.
  for (let i = 0; i < 5; i++) {
    await db
      .insertInto('staff_login_tries')
      .values({ phone: `1390000${String(i).padStart(4, '0')}`, tries: 1, window_ends: i < 4 ? long : now + 60_000 })
      .execute();
  }
}
