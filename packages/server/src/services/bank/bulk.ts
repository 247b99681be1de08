import { BANK_LIMITS, type AuditAction, type BankBulkResult } from '@examhall/contract';
import type { BankQuestionRecord } from '../../repositories/bank.js';
import type { AccessService, StaffActor } from '../access.js';
import { type BankTxDeps, inTransaction, questionObject, unique } from './common.js';
import { questionSnapshot } from './stored.js';

/** What bulk changes need. */
export interface BankBulkDeps extends BankTxDeps {
  clock: () => number;
}

/** Changes to many bank questions at once (move, tag, untag, delete), each question's change audited. */
export class BankBulkService {
  constructor(private readonly deps: BankBulkDeps) {}

  /**
   * Applies one change to each question in a transaction: `change` answers the new columns and tags, or why
   * the question is kept as it is. Each change bumps the revision and is audited.
   */
  private async bulk(
    actor: StaffActor,
    action: AuditAction,
    ids: readonly number[],
    change: (
      r: BankQuestionRecord,
      tx: { access: AccessService },
    ) => Promise<{ folder_id?: number | null; team_id?: number | null; tags?: string[] } | string>,
  ): Promise<BankBulkResult> {
    const wanted = unique(ids);
    return inTransaction(this.deps, async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'question', wanted);
      const rows = new Map((await repo.byIds(wanted)).map((r) => [r.id, r]));
      const result: BankBulkResult = { done: [], kept: [] };
      for (const id of wanted) {
        const before = rows.get(id)!;
        const outcome = await change(before, { access });
        if (typeof outcome === 'string') {
          result.kept.push({ id, reason: outcome });
          continue;
        }
        const { tags, ...patch } = outcome;
        const saved = await repo.update(
          id,
          before.revision,
          { ...patch, editor_id: actor.id, updated_at: this.deps.clock() },
          tags,
        );
        if (!saved) {
          result.kept.push({ id, reason: 'changed by someone else meanwhile; try again' });
          continue;
        }
        const [after] = await repo.byIds([id]);
        await audit.record(actor, action, questionObject(id), questionSnapshot(before), questionSnapshot(after!));
        result.done.push(id);
      }
      return result;
    });
  }

  /** Moves questions into a folder (taking its team) or out of every folder. */
  async bulkMove(actor: StaffActor, ids: readonly number[], folderId: number | null): Promise<BankBulkResult> {
    // The target folder is checked once, in the bulk's transaction; its team becomes the questions'.
    let team: Promise<number | null> | undefined;
    return this.bulk(actor, 'bank.question.move', ids, async (_r, { access }) => {
      if (folderId === null) return { folder_id: null };
      team ??= access.require(actor, 'bank.manage', 'folder', folderId).then(([owner]) => owner!.teamId);
      return { folder_id: folderId, team_id: await team };
    });
  }

  /** Adds tags to questions; one already carrying them all, or that would carry too many, is kept. */
  async bulkTag(actor: StaffActor, ids: readonly number[], tags: readonly string[]): Promise<BankBulkResult> {
    return this.bulk(actor, 'bank.question.tag', ids, async (r) => {
      const next = unique([...r.tags, ...tags]);
      if (next.length === r.tags.length) return 'already carries every one of these tags';
      if (next.length > BANK_LIMITS.tags) return `would carry more than ${BANK_LIMITS.tags} tags`;
      return { tags: next };
    });
  }

  /** Removes tags from questions; one carrying none of them is kept. */
  async bulkUntag(actor: StaffActor, ids: readonly number[], tags: readonly string[]): Promise<BankBulkResult> {
    return this.bulk(actor, 'bank.question.untag', ids, async (r) => {
      const next = r.tags.filter((t) => !tags.includes(t));
      if (next.length === r.tags.length) return 'carries none of these tags';
      return { tags: next };
    });
  }

  /** Deletes questions; one that an exam version contains is kept (its exams still show and score it). */
  async bulkDelete(actor: StaffActor, ids: readonly number[]): Promise<BankBulkResult> {
    const wanted = unique(ids);
    return inTransaction(this.deps, async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'question', wanted);
      const rows = await repo.byIds(wanted);
      const result: BankBulkResult = { done: [], kept: [] };
      for (const r of rows) {
        if (r.used_count > 0) {
          result.kept.push({ id: r.id, reason: `used by ${r.used_count} exam${r.used_count === 1 ? '' : 's'}` });
          continue;
        }
        await audit.record(actor, 'bank.question.delete', questionObject(r.id), questionSnapshot(r), null);
        result.done.push(r.id);
      }
      await repo.delete(result.done);
      return result;
    });
  }
}
