import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AnswerTable, AttemptTable, CandidateTable, InvitationTable, QuestionScoreTable } from '../db/schema.js';

/** Parameters per statement: well under SQLite's limit, and few round trips on PostgreSQL. */
const PARAMS_PER_STATEMENT = 8000;

/** Rows per statement for a table of `columns` columns. */
const chunkOf = (columns: number) => Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns));

/**
 * Finished attempts written in bulk (benchmarks and tests of the results area): candidates, their invitations
 * and attempts, each attempt's per-question rows and answers, in multi-row statements.
 */
export class ResultsSeedRepository {
  constructor(private readonly db: Db) {}

  /** Stores candidates; answers their ids in the rows' order. */
  async candidates(rows: Insertable<CandidateTable>[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += chunkOf(10)) {
      const out = await this.db
        .insertInto('candidates')
        .values(rows.slice(i, i + chunkOf(10)))
        .returning(['id', 'phone'])
        .execute();
      // Matched by phone: the order RETURNING answers in is not promised.
      const byPhone = new Map(out.map((r) => [r.phone, r.id]));
      ids.push(...rows.slice(i, i + chunkOf(10)).map((r) => byPhone.get(r.phone)!));
    }
    return ids;
  }

  /** Stores invitations (one exam); answers their ids in the rows' order. */
  async invitations(rows: Insertable<InvitationTable>[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += chunkOf(7)) {
      const out = await this.db
        .insertInto('invitations')
        .values(rows.slice(i, i + chunkOf(7)))
        .returning(['id', 'phone'])
        .execute();
      const byPhone = new Map(out.map((r) => [r.phone, r.id]));
      ids.push(...rows.slice(i, i + chunkOf(7)).map((r) => byPhone.get(r.phone)!));
    }
    return ids;
  }

  /** Stores attempts; answers their ids in the rows' order. */
  async attempts(rows: Insertable<AttemptTable>[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += chunkOf(16)) {
      const out = await this.db
        .insertInto('attempts')
        .values(rows.slice(i, i + chunkOf(16)))
        .returning(['id', 'invitation_id'])
        .execute();
      const byInvitation = new Map(out.map((r) => [r.invitation_id, r.id]));
      ids.push(...rows.slice(i, i + chunkOf(16)).map((r) => byInvitation.get(r.invitation_id)!));
    }
    return ids;
  }

  /** Stores per-question score rows. */
  async scores(rows: Insertable<QuestionScoreTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += chunkOf(7)) {
      await this.db
        .insertInto('question_scores')
        .values(rows.slice(i, i + chunkOf(7)))
        .execute();
    }
  }

  /** Stores answers. */
  async answers(rows: Insertable<AnswerTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += chunkOf(6)) {
      await this.db
        .insertInto('answers')
        .values(rows.slice(i, i + chunkOf(6)))
        .execute();
    }
  }
}
