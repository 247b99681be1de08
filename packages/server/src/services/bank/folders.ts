import { BANK_LIMITS, type BankFolderNode, type BankFolderTree } from '@examhall/contract';
import { fail } from '../../errors.js';
import { BankRepository, type BankFolderRow } from '../../repositories/bank.js';
import type { StaffActor } from '../access.js';
import { type BankTxDeps, byId, depthOf, folderObject, inTransaction, need, ownTeam } from './common.js';

/** What the folder tree needs. */
export interface BankFolderDeps extends BankTxDeps {
  clock: () => number;
}

/** A folder as the audit log keeps it. */
const folderSnapshot = (f: BankFolderRow) => ({ id: f.id, team_id: f.team_id, parent_id: f.parent_id, name: f.name });

/** The bank's folders: a tree per team (null: of no team), created, renamed, moved and deleted, each change audited. */
export class BankFolderService {
  private readonly repo: BankRepository;

  constructor(private readonly deps: BankFolderDeps) {
    this.repo = new BankRepository(deps.db);
  }

  /** The folder tree the actor may see, parents before children, with question counts. */
  async folders(actor: StaffActor): Promise<BankFolderTree> {
    need(this.deps.access, actor, 'bank.read');
    const team = this.deps.access.teamFilter(actor);
    const [rows, unfiled] = await Promise.all([this.repo.folders(team), this.repo.unfiledCount(team)]);
    return { list: treeOrder(rows), unfiled_count: unfiled };
  }

  /** Creates a folder: a top folder of the actor's team (or the team an admin names), or a sub-folder. */
  async createFolder(
    actor: StaffActor,
    body: { name: string; parent_id?: number | null | undefined; team_id?: number | null | undefined },
  ): Promise<BankFolderNode> {
    const parentId = body.parent_id ?? null;
    const row = await inTransaction(this.deps, async ({ repo, audit, access }) => {
      let team: number | null;
      if (parentId !== null) {
        const [parent] = await access.require(actor, 'bank.manage', 'folder', parentId);
        team = parent!.teamId;
        const tree = byId(await repo.teamFolders(team));
        if (depthOf(tree, parentId) + 1 >= BANK_LIMITS.folderDepth) {
          throw fail('validation_error', `parent_id: folders nest at most ${BANK_LIMITS.folderDepth} deep`);
        }
      } else {
        need(this.deps.access, actor, 'bank.manage');
        team = await ownTeam(actor, body.team_id, access);
      }
      if (await repo.sibling(team, parentId, body.name)) {
        throw fail('conflict', `name: there is already a folder "${body.name}" here`);
      }
      const created = await repo.createFolder({
        team_id: team,
        parent_id: parentId,
        name: body.name,
        created_by: actor.id,
        created_at: this.deps.clock(),
      });
      await audit.record(actor, 'bank.folder.create', folderObject(created.id), null, folderSnapshot(created));
      return created;
    });
    return this.folderNode(actor, row.id);
  }

  /** Renames and/or moves a folder within its team's tree; never into itself or one of its sub-folders. */
  async updateFolder(
    actor: StaffActor,
    body: { folder_id: number; name?: string | undefined; parent_id?: number | null | undefined },
  ): Promise<BankFolderNode> {
    const id = body.folder_id;
    await inTransaction(this.deps, async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'folder', id);
      const before = (await repo.folder(id))!;
      const parentId = body.parent_id === undefined ? before.parent_id : body.parent_id;
      const name = body.name ?? before.name;
      const tree = byId(await repo.teamFolders(before.team_id));
      if (parentId !== null && parentId !== before.parent_id) {
        const [parent] = await access.require(actor, 'bank.manage', 'folder', parentId);
        if (parent!.teamId !== before.team_id) {
          throw fail('validation_error', `parent_id: folder ${parentId} belongs to another team`);
        }
        // Walking up from the new parent must not meet the folder itself: that would close a cycle.
        for (let at: number | null = parentId; at !== null; at = tree.get(at)?.parent_id ?? null) {
          if (at === id) {
            throw fail('validation_error', `parent_id: folder ${id} cannot move into itself or one of its sub-folders`);
          }
        }
        const depth = depthOf(tree, parentId) + 1 + heightOf(tree, id);
        if (depth >= BANK_LIMITS.folderDepth) {
          throw fail('validation_error', `parent_id: folders nest at most ${BANK_LIMITS.folderDepth} deep`);
        }
      }
      if (
        (name !== before.name || parentId !== before.parent_id) &&
        (await repo.sibling(before.team_id, parentId, name, id))
      ) {
        throw fail('conflict', `name: there is already a folder "${name}" there`);
      }
      await repo.updateFolder(id, { name, parent_id: parentId });
      await audit.record(actor, 'bank.folder.update', folderObject(id), folderSnapshot(before), {
        ...folderSnapshot(before),
        name,
        parent_id: parentId,
      });
    });
    return this.folderNode(actor, id);
  }

  /** Deletes a folder that holds no sub-folder and no question. */
  async deleteFolder(actor: StaffActor, id: number): Promise<void> {
    await inTransaction(this.deps, async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'folder', id);
      const before = (await repo.folder(id))!;
      const { folders, questions } = await repo.folderContents(id);
      if (folders > 0 || questions > 0) {
        throw fail(
          'folder_not_empty',
          `folder ${id} is not empty: ${folders} sub-folder(s) and ${questions} question(s); move or delete them first`,
        );
      }
      await repo.deleteFolder(id);
      await audit.record(actor, 'bank.folder.delete', folderObject(id), folderSnapshot(before), null);
    });
  }

  /** One folder as the tree shows it. */
  private async folderNode(actor: StaffActor, id: number): Promise<BankFolderNode> {
    const { list } = await this.folders(actor);
    const node = list.find((f) => f.id === id);
    if (!node) throw fail('not_found', `no such folder ${id}`);
    return node;
  }
}

/** How many levels lie below a folder (0 for one without sub-folders). */
function heightOf(tree: Map<number, BankFolderRow>, id: number): number {
  let height = 0;
  for (const f of tree.values()) {
    if (f.parent_id === id) height = Math.max(height, 1 + heightOf(tree, f.id));
  }
  return height;
}

/** Folders in tree order (parents before children, siblings by name) with depth and counts. */
function treeOrder(rows: (BankFolderRow & { question_count: number })[]): BankFolderNode[] {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, typeof rows>();
  for (const r of rows) {
    // A folder whose parent the caller cannot see is shown at the top.
    const parent = r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const out: BankFolderNode[] = [];
  const visit = (r: (typeof rows)[number], depth: number): number => {
    const node: BankFolderNode = {
      id: r.id,
      team_id: r.team_id,
      parent_id: r.parent_id,
      name: r.name,
      depth,
      question_count: r.question_count,
      total_count: r.question_count,
      created_at: r.created_at,
    };
    out.push(node);
    for (const c of children.get(r.id) ?? []) node.total_count += visit(c, depth + 1);
    return node.total_count;
  };
  for (const r of children.get(null) ?? []) visit(r, 0);
  return out;
}
