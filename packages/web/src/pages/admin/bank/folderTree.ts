/**
 * The bank's folder tree from the flat list the server answers (parents before children). Framework-free
 * so it is tested on its own.
 */
import type { BankFolderNode } from '@examhall/contract';

/** A folder with its sub-folders. */
export interface FolderBranch {
  folder: BankFolderNode;
  children: FolderBranch[];
}

/** The folders as a tree; a folder whose parent is not in the list is shown at the top. */
export function buildTree(list: readonly BankFolderNode[]): FolderBranch[] {
  const byId = new Map<number, FolderBranch>();
  for (const folder of list) byId.set(folder.id, { folder, children: [] });
  const roots: FolderBranch[] = [];
  for (const folder of list) {
    const branch = byId.get(folder.id)!;
    const parent = folder.parent_id === null ? undefined : byId.get(folder.parent_id);
    if (parent) parent.children.push(branch);
    else roots.push(branch);
  }
  return roots;
}

/** The ids of a folder and every folder below it. */
export function subtreeIds(list: readonly BankFolderNode[], id: number): Set<number> {
  const ids = new Set<number>([id]);
  // The list is in tree order, so one pass finds every descendant after its parent.
  for (const f of list) if (f.parent_id !== null && ids.has(f.parent_id)) ids.add(f.id);
  return ids;
}

/**
 * The folders a folder may move under: of its own team, not itself, nothing below it, and not so deep that
 * its lowest sub-folder would pass `maxDepth`.
 */
export function moveTargets(list: readonly BankFolderNode[], id: number, maxDepth: number): BankFolderNode[] {
  const own = subtreeIds(list, id);
  const moving = list.filter((f) => own.has(f.id));
  const top = list.find((f) => f.id === id);
  if (!top) return [];
  const height = Math.max(...moving.map((f) => f.depth - top.depth));
  return list.filter((f) => f.team_id === top.team_id && !own.has(f.id) && f.depth + 1 + height <= maxDepth);
}

/** A folder's path from the top, e.g. "Backend / Java / Collections". */
export function folderPath(list: readonly BankFolderNode[], id: number | null): string {
  const byId = new Map(list.map((f) => [f.id, f]));
  const names: string[] = [];
  let at = id === null ? undefined : byId.get(id);
  const seen = new Set<number>();
  while (at && !seen.has(at.id)) {
    seen.add(at.id);
    names.unshift(at.name);
    at = at.parent_id === null ? undefined : byId.get(at.parent_id);
  }
  return names.join(' / ');
}

/** A folder as a tree-select option. */
export interface FolderOption<V> {
  value: V;
  title: string;
  disabled?: boolean;
  children: FolderOption<V>[];
}

/** The folder tree as tree-select options; `disabled` greys out folders that may not be picked. */
export function folderOptions<V>(
  list: readonly BankFolderNode[],
  value: (f: BankFolderNode) => V,
  disabled?: (f: BankFolderNode) => boolean,
): FolderOption<V>[] {
  const toOption = (b: FolderBranch): FolderOption<V> => ({
    value: value(b.folder),
    title: b.folder.name,
    ...(disabled ? { disabled: disabled(b.folder) } : {}),
    children: b.children.map(toOption),
  });
  return buildTree(list).map(toOption);
}
