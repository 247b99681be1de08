import { PostgresAdapter, sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import { hotQuery } from '../db/hotQuery.js';
import type { AnswerEventTable, AnswerTable, AttemptTable } from '../db/schema.js';

/** An attempt row. */
export type AttemptRow = Selectable<AttemptTable>;
/** An answer row. */
export type AnswerRow = Selectable<AnswerTable>;

/** One entry of the answer event log, before it has an id. */
export type AnswerEventRow = Omit<Selectable<AnswerEventTable>, 'id'>;

const latestAttempt = hotQuery((db, p: { candidateId: number; examId: number }) =>
  db
    .selectFrom('attempts')
    .selectAll()
    .where('candidate_id', '=', p.candidateId)
    .where('exam_id', '=', p.examId)
    .orderBy('id', 'desc')
    // A literal: with a bound LIMIT parameter SQLite plans this lookup two to three times slower.
    .limit(sql.lit(1)),
);

// Only what the answer save needs to know whether the latest attempt takes writes and the question is one of
// its own (its version and the questions it drew): fewer columns to read.
// On PostgreSQL the row is share-locked until the save commits, so finishing the attempt waits for the
// save (or the save sees it finished); on SQLite the save's transaction is the only writer anyway.
const latestState = hotQuery((db, p: { candidateId: number; examId: number }) => {
  const query = db
    .selectFrom('attempts')
    .select(['id', 'phase', 'end_at', 'version_id', 'question_ids'])
    .where('candidate_id', '=', p.candidateId)
    .where('exam_id', '=', p.examId)
    .orderBy('id', 'desc')
    .limit(sql.lit(1));
  return db.getExecutor().adapter instanceof PostgresAdapter ? query.forShare() : query;
});

const answerVersion = hotQuery((db, p: { attemptId: number; questionId: number }) =>
  db
    .selectFrom('answers')
    .select('version')
    .where('attempt_id', '=', p.attemptId)
    .where('question_id', '=', p.questionId),
);

// Stores an answer unless the same or a higher seq is stored; the update's condition makes retries harmless.
const upsertAnswer = hotQuery(
  (db, p: { attempt_id: number; question_id: number; value: string; seq: number; saved_at: number }) =>
    db
      .insertInto('answers')
      .values({
        attempt_id: p.attempt_id,
        question_id: p.question_id,
        value: p.value,
        seq: p.seq,
        saved_at: p.saved_at,
        version: 1,
      })
      .onConflict((oc) =>
        oc
          .columns(['attempt_id', 'question_id'])
          .doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            seq: eb.ref('excluded.seq'),
            saved_at: eb.ref('excluded.saved_at'),
            version: eb('answers.version', '+', 1),
          }))
          .where((eb) => eb('answers.seq', '<', eb.ref('excluded.seq'))),
      )
      .returning('version'),
);

const insertEvent = hotQuery((db, p: AnswerEventRow) =>
  db
    .insertInto('answer_events')
    .values({
      attempt_id: p.attempt_id,
      question_id: p.question_id,
      client_id: p.client_id,
      seq: p.seq,
      event: p.event,
      value: p.value,
      version: p.version,
      changed_at: p.changed_at,
      received_at: p.received_at,
    })
    .onConflict((oc) => oc.columns(['attempt_id', 'client_id']).doNothing()),
);

/** One change to write with {@link AttemptRepository.writeChanges}: an answer (or none) and its event. */
export type AnswerChange = Omit<AnswerEventRow, 'version'>;

/**
 * What writing a change did: the answer's version after it, whether its event was recorded, and when the
 * client id was recorded before, that first event.
 */
export interface ChangeWritten {
  version: number;
  recorded: boolean;
  first: { question_id: number; seq: number; version: number; received_at: number } | null;
}

/** The attempt facts a save checks, as {@link AttemptRepository.latestState} reads them. */
export type AttemptState = Pick<AttemptRow, 'id' | 'phase' | 'end_at' | 'version_id' | 'question_ids'>;

/** Attempts and their answers, answer events and audio plays. */
export class AttemptRepository {
  constructor(private readonly db: Db) {}

  /**
   * Whether this database writes many changes in one statement ({@link latestStates} with
   * {@link writeChanges}): PostgreSQL, where each statement is a round trip to another process. On SQLite
   * a statement is a call in this process, and changes are written one by one.
   */
  static multiRow(db: Db): boolean {
    return db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /** The candidate's latest attempt at an exam. */
  async latest(candidateId: number, examId: number): Promise<AttemptRow | undefined> {
    return (await latestAttempt(this.db, { candidateId, examId })).rows[0];
  }

  /** Id, phase, end, version and questions of the candidate's latest attempt at an exam. */
  async latestState(
    candidateId: number,
    examId: number,
  ): Promise<Pick<AttemptRow, 'id' | 'phase' | 'end_at' | 'version_id' | 'question_ids'> | undefined> {
    return (await latestState(this.db, { candidateId, examId })).rows[0];
  }

  /**
   * {@link latestState} of many candidates and exams in one statement (PostgreSQL), each row share-locked
   * until the transaction commits; keyed by `candidateId:examId`.
   */
  async latestStates(pairs: readonly { candidateId: number; examId: number }[]): Promise<Map<string, AttemptState>> {
    const { rows } = await sql<AttemptState & { candidate_id: number; exam_id: number }>`
      select i.candidate_id, i.exam_id, a.id, a.phase, a.end_at, a.version_id, a.question_ids
      from unnest(${pairs.map((p) => p.candidateId)}::integer[], ${pairs.map((p) => p.examId)}::integer[])
        as i(candidate_id, exam_id)
      cross join lateral (
        select id, phase, end_at, version_id, question_ids from attempts
        where candidate_id = i.candidate_id and exam_id = i.exam_id
        order by id desc limit 1
        for share
      ) a`.execute(this.db);
    return new Map(rows.map(({ candidate_id, exam_id, ...state }) => [`${candidate_id}:${exam_id}`, state]));
  }

  /**
   * Writes many changes in one statement (PostgreSQL), with the rules of {@link applyAnswer} and
   * {@link addEvent}: each answer is stored unless the same or a higher seq is stored, and each event is
   * logged with the answer's version after it unless its client id was recorded already; a change whose
   * client id was recorded already stores no answer either, and answers that first event. No two changes
   * may share an answer (attempt and question) or a client id: those go in statements one after another.
   * Answers are written in key order (two batches at once never wait for each other in a circle), events in
   * the order of the changes.
   * `first` is null for a change not recorded whose first event this statement could not see yet (one
   * committed while it ran).
   */
  async writeChanges(changes: readonly AnswerChange[]): Promise<ChangeWritten[]> {
    const col = <K extends keyof AnswerChange>(k: K) => changes.map((c) => c[k]);
    const { rows } = await sql<{
      version: number;
      recorded: boolean;
      first_question_id: number | null;
      first_seq: number | null;
      first_version: number | null;
      first_received_at: number | null;
    }>`
      with input as (
        select * from unnest(
          ${col('attempt_id')}::integer[], ${col('question_id')}::integer[], ${col('client_id')}::text[],
          ${col('seq')}::integer[], ${col('event')}::integer[], ${col('value')}::text[],
          ${col('changed_at')}::bigint[], ${col('received_at')}::bigint[]
        ) with ordinality as t(attempt_id, question_id, client_id, seq, event, value, changed_at, received_at, ord)
      ),
      seen as (
        select i.ord, e.question_id, e.seq, e.version, e.received_at
        from input i join answer_events e on e.attempt_id = i.attempt_id and e.client_id = i.client_id
      ),
      applied as (
        insert into answers as a (attempt_id, question_id, value, seq, saved_at, version)
        select attempt_id, question_id, value, seq, received_at, 1 from input i
        where value is not null and not exists (select 1 from seen where seen.ord = i.ord)
        order by attempt_id, question_id
        on conflict (attempt_id, question_id) do update
          set value = excluded.value, seq = excluded.seq, saved_at = excluded.saved_at, version = a.version + 1
          where a.seq < excluded.seq
        returning attempt_id, question_id, version
      ),
      versioned as (
        select i.*, coalesce(ap.version, cur.version, 0) as version
        from input i
        left join applied ap on ap.attempt_id = i.attempt_id and ap.question_id = i.question_id
        left join answers cur on cur.attempt_id = i.attempt_id and cur.question_id = i.question_id
      ),
      logged as (
        insert into answer_events (attempt_id, question_id, client_id, seq, event, value, version, changed_at, received_at)
        select attempt_id, question_id, client_id, seq, event, value, version, changed_at, received_at from versioned v
        where not exists (select 1 from seen where seen.ord = v.ord)
        order by ord
        on conflict (attempt_id, client_id) do nothing
        returning attempt_id, client_id
      )
      select v.version, l.client_id is not null as recorded, s.question_id as first_question_id, s.seq as first_seq,
        s.version as first_version, s.received_at as first_received_at
      from versioned v
      left join logged l on l.attempt_id = v.attempt_id and l.client_id = v.client_id
      left join seen s on s.ord = v.ord
      order by v.ord`.execute(this.db);
    return rows.map((r) => ({
      version: r.version,
      recorded: r.recorded,
      first:
        r.first_question_id === null
          ? null
          : {
              question_id: r.first_question_id,
              seq: r.first_seq!,
              version: r.first_version!,
              received_at: r.first_received_at!,
            },
    }));
  }

  /** Ids of every attempt of a candidate at an exam (practice runs included). */
  async idsOf(candidateId: number, examId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('attempts')
      .select('id')
      .where('candidate_id', '=', candidateId)
      .where('exam_id', '=', examId)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Sets the score of a finished attempt (a submit judged after the end). */
  async setScore(id: number, score: number, maxScore: number): Promise<void> {
    await this.db.updateTable('attempts').set({ score, max_score: maxScore }).where('id', '=', id).execute();
  }

  /** An attempt by id. */
  byId(id: number): Promise<AttemptRow | undefined> {
    return this.db.selectFrom('attempts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Creates an attempt. */
  create(row: Insertable<AttemptTable>): Promise<AttemptRow> {
    return this.db.insertInto('attempts').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Updates an attempt only while it is in `fromPhase`; false when another request moved it first. */
  async updateInPhase(id: number, fromPhase: number, set: Updateable<AttemptTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('attempts')
      .set(set)
      .where('id', '=', id)
      .where('phase', '=', fromPhase)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** How many attempts are in the exam phase now (metrics; counted over the index on phase and end). */
  async inExam(): Promise<number> {
    const row = await this.db
      .selectFrom('attempts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('phase', '=', 2)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Ids of open attempts whose time is up. */
  async overdue(now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('attempts')
      .select('id')
      .where('phase', '=', 2)
      .where('end_at', '<=', now)
      .orderBy('end_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Every stored answer of an attempt. */
  answers(attemptId: number): Promise<AnswerRow[]> {
    return this.db.selectFrom('answers').selectAll().where('attempt_id', '=', attemptId).execute();
  }

  /** The stored answer to one question. */
  answer(attemptId: number, questionId: number): Promise<AnswerRow | undefined> {
    return this.db
      .selectFrom('answers')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .executeTakeFirst();
  }

  /**
   * Stores an answer unless a change with the same or a higher seq is stored already; returns the new
   * version, or null when nothing changed. One statement, so a retry can never bump the version twice.
   */
  async applyAnswer(row: {
    attempt_id: number;
    question_id: number;
    value: string;
    seq: number;
    saved_at: number;
  }): Promise<number | null> {
    return (await upsertAnswer(this.db, row)).rows[0]?.version ?? null;
  }

  /** Version of the stored answer, 0 when there is none. */
  async version(attemptId: number, questionId: number): Promise<number> {
    // Hot: every answer event without a new answer (navigation, leave, enter) reads it.
    return (await answerVersion(this.db, { attemptId, questionId })).rows[0]?.version ?? 0;
  }

  /** The event a client id was recorded as, if it was. */
  eventByClientId(attemptId: number, clientId: string) {
    return this.db
      .selectFrom('answer_events')
      .select(['question_id', 'seq', 'version', 'received_at'])
      .where('attempt_id', '=', attemptId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Appends to the answer event log; false when the client id was recorded already. */
  async addEvent(row: AnswerEventRow): Promise<boolean> {
    return Number((await insertEvent(this.db, row)).numAffectedRows ?? 0) === 1;
  }

  /** Plays used of a listening audio. */
  async plays(attemptId: number, questionId: number): Promise<number> {
    const row = await this.db
      .selectFrom('audio_plays')
      .select('play_count')
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .executeTakeFirst();
    return row?.play_count ?? 0;
  }

  /** Counts one play when fewer than `limit` were used; returns the new count, or null at the limit. */
  async addPlay(attemptId: number, questionId: number, limit: number, now: number): Promise<number | null> {
    await this.db
      .insertInto('audio_plays')
      .values({ attempt_id: attemptId, question_id: questionId, play_count: 0, last_played_at: now })
      .onConflict((oc) => oc.columns(['attempt_id', 'question_id']).doNothing())
      .execute();
    const r = await this.db
      .updateTable('audio_plays')
      .set((eb) => ({ play_count: eb('play_count', '+', 1), last_played_at: now }))
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .where('play_count', '<', limit)
      .returning('play_count')
      .executeTakeFirst();
    return r?.play_count ?? null;
  }
}
