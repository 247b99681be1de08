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

/** Attempts and their answers, answer events and audio plays. */
export class AttemptRepository {
  constructor(private readonly db: Db) {}

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
