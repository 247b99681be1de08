/**
 * The question bank (services/bank/), one service per job: folders (a tree per team), questions with their typed
 * body and metadata and tags, bulk changes, uploads of pictures, audio and hidden cases, the judge's check of
 * reference solutions, questions for exams (pools.ts) and imports and exports (transfer.ts). Every body is checked
 * against its kind's schema when written and when read; a stored row that no longer parses is reported by id
 * (`question_invalid`), never a 500. Access goes through `access` by resource id, and every change is audited in
 * its own transaction.
 *
 * This module holds what several of them share: the permission check, the transaction a change runs in, the
 * objects of audit entries and the walks of a team's folder tree.
 */
import { BANK_LIMITS, type Permission } from '@examhall/contract';
import type { Db } from '../../db/database.js';
import { fail } from '../../errors.js';
import { BankRepository, type BankFolderRow } from '../../repositories/bank.js';
import type { AccessService, StaffActor } from '../access.js';
import type { AuditService } from '../audit.js';

/** What a change to the bank runs in: the database, with the access check and the audit log bound to its transaction. */
export interface BankTxDeps {
  db: Db;
  access: AccessService;
  audit: AuditService;
}

/** What `inTransaction` hands its function: the transaction, with the repository, access check and audit log on it. */
export interface BankTx {
  trx: Db;
  repo: BankRepository;
  audit: AuditService;
  access: AccessService;
}

/** Refuses a role without the permission (calls on no single resource: lists filtered by team, uploads). */
export function need(access: AccessService, actor: StaffActor, permission: Permission): void {
  if (!access.can(actor, permission)) throw fail('forbidden', `the ${actor.role} role lacks ${permission}`);
}

/** Runs `fn` in a transaction with the repository, the access check and the audit log bound to it. */
export function inTransaction<T>(deps: BankTxDeps, fn: (tx: BankTx) => Promise<T>, outer?: Db): Promise<T> {
  const run = (trx: Db) =>
    fn({ trx, repo: new BankRepository(trx), audit: deps.audit.with(trx), access: deps.access.with(trx) });
  return outer ? run(outer) : deps.db.transaction().execute(run);
}

/** The team a new top folder or a question in no folder belongs to. */
export async function ownTeam(actor: StaffActor, requested: number | null | undefined, access: AccessService) {
  if (actor.role === 'admin') {
    if (requested === undefined) return actor.teamId;
    if (requested !== null) await access.require(actor, 'bank.manage', 'team', requested);
    return requested;
  }
  if (actor.teamId === null) throw fail('forbidden', 'you belong to no team, so there is no bank to add to');
  if (requested !== undefined && requested !== actor.teamId) throw fail('not_found', `no such team ${requested}`);
  return actor.teamId;
}

/** The object of a question's or folder's audit entries. */
export const questionObject = (id: number) => ({ kind: 'question' as const, id });
export const folderObject = (id: number) => ({ kind: 'folder' as const, id });

/** Each item once, in first-seen order. */
export const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];

/** Folders by id. */
export const byId = (rows: BankFolderRow[]) => new Map(rows.map((f) => [f.id, f]));

/** Depth of a folder: 0 at the top. */
export function depthOf(tree: Map<number, BankFolderRow>, id: number): number {
  let depth = 0;
  for (
    let at = tree.get(id)?.parent_id ?? null;
    at !== null && depth <= BANK_LIMITS.folderDepth;
    at = tree.get(at)?.parent_id ?? null
  ) {
    depth += 1;
  }
  return depth;
}

/** A folder and every folder below it. */
export async function withSubFolders(
  folderIds: readonly number[],
  team: number | null,
  repo: BankRepository,
): Promise<number[]> {
  if (folderIds.length === 0) return [];
  const rows = await repo.teamFolders(team);
  const children = new Map<number, number[]>();
  for (const f of rows)
    if (f.parent_id !== null) children.set(f.parent_id, [...(children.get(f.parent_id) ?? []), f.id]);
  const out = new Set<number>();
  const stack = [...folderIds];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...out];
}
