import type { BankVerificationState, QuestionBody, QuestionKind } from '@examhall/contract';
import type { Db } from '../../db/database.js';
import { fail } from '../../errors.js';
import type { ServiceLog } from '../../log.js';
import { BankRepository } from '../../repositories/bank.js';
import { unique, withSubFolders } from './common.js';
import { parseStored, verificationOf, verificationState } from './stored.js';

/** A bank question as publishing needs it: the typed body, its team and where its reference check stands. */
export interface PublishQuestion {
  id: number;
  teamId: number | null;
  kind: QuestionKind;
  /** Question type id (1..11, QuestionType). */
  type: number;
  body: QuestionBody;
  /** Its explanation and feedback per option as stored (JSON), or null: frozen with it. */
  explanation: string | null;
  defaultScore: number;
  /** 'none' for kinds without a reference check, and for programming questions never checked. */
  verification: BankVerificationState;
  /** What failed ("hidden case 2 (2.in): WA") when the check failed; null otherwise. */
  problem: string | null;
}

/** A draw rule's pool: one team's questions (null: those of no team) in any of the folders (with their sub-folders), with any of the tags, of any of the difficulties; empty lists do not narrow. */
export interface PoolRule {
  team: number | null;
  folder_ids?: readonly number[] | undefined;
  tags?: readonly string[] | undefined;
  difficulty?: readonly number[] | undefined;
}

/** What exams need of the bank's rows. */
export interface BankPoolDeps {
  db: Db;
  log: ServiceLog;
}

/** Bank questions for exams: those publishing freezes, and the pool a draw rule picks from. */
export class BankPoolService {
  private readonly repo: BankRepository;

  constructor(private readonly deps: BankPoolDeps) {
    this.repo = new BankRepository(deps.db);
  }

  /**
   * Bank questions by id as publishing an exam needs them, in the order asked: typed body, team, default
   * score and where the reference check stands. `not_found` for a missing id, `question_invalid` for a row
   * that no longer parses. Pass a transaction as `db` to read inside it. No access check: the caller checks
   * the exam and compares teams.
   */
  async getForPublish(ids: readonly number[], db?: Db): Promise<PublishQuestion[]> {
    const repo = db ? new BankRepository(db) : this.repo;
    const rows = new Map((await repo.byIds(unique(ids))).map((r) => [r.id, r]));
    return ids.map((id) => {
      const r = rows.get(id);
      if (!r) throw fail('not_found', `no such question ${id}`);
      const body = parseStored(r, this.deps.log);
      const v = verificationOf(r, body);
      return {
        id,
        teamId: r.team_id,
        kind: body.kind,
        type: r.type,
        body,
        explanation: r.explanation,
        defaultScore: r.default_score,
        verification: verificationState(r, body),
        problem: v && !v.ok ? v.problem : null,
      };
    });
  }

  /** Ids of the bank questions a draw rule picks from, ascending (folders include their sub-folders). */
  async poolFor(rule: PoolRule, db?: Db): Promise<number[]> {
    const repo = db ? new BankRepository(db) : this.repo;
    const folderIds = rule.folder_ids?.length ? await withSubFolders(rule.folder_ids, rule.team, repo) : undefined;
    return repo.pool({ team: rule.team, folderIds, tags: rule.tags, difficulty: rule.difficulty });
  }
}
