import type { BankFolderNode } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { buildTree, folderPath, moveTargets, subtreeIds } from './folderTree.js';

function folder(id: number, parent_id: number | null, depth: number, name = `f${id}`): BankFolderNode {
  return { id, parent_id, depth, name, team_id: 1, question_count: 0, total_count: 0, created_at: 0 };
}

// 1 ─ 2 ─ 3
//   └ 4
// 5
const LIST = [folder(1, null, 0), folder(2, 1, 1), folder(3, 2, 2), folder(4, 1, 1), folder(5, null, 0)];

describe('the folder tree', () => {
  it('nests folders under their parents, keeping the order', () => {
    const tree = buildTree(LIST);
    expect(tree.map((b) => b.folder.id)).toEqual([1, 5]);
    expect(tree[0]!.children.map((b) => b.folder.id)).toEqual([2, 4]);
    expect(tree[0]!.children[0]!.children.map((b) => b.folder.id)).toEqual([3]);
  });

  it('shows a folder whose parent is not visible at the top', () => {
    expect(buildTree([folder(9, 42, 3)]).map((b) => b.folder.id)).toEqual([9]);
  });

  it('finds a folder with everything below it', () => {
    expect([...subtreeIds(LIST, 1)].sort()).toEqual([1, 2, 3, 4]);
    expect([...subtreeIds(LIST, 2)].sort()).toEqual([2, 3]);
  });

  it('offers as move targets neither the folder, nor anything below it, nor what would nest too deep', () => {
    expect(moveTargets(LIST, 2, 8).map((f) => f.id)).toEqual([1, 4, 5]);
    // Folder 2 has a child, so under 4 (depth 1) it would reach depth 3: refused with a limit of 2.
    expect(moveTargets(LIST, 2, 2).map((f) => f.id)).toEqual([1, 5]);
    expect(moveTargets(LIST, 99, 8)).toEqual([]);
    // Another team's folder is never a target.
    expect(moveTargets([...LIST, { ...folder(6, null, 0), team_id: 2 }], 2, 8).map((f) => f.id)).toEqual([1, 4, 5]);
  });

  it('names a folder by its path', () => {
    expect(folderPath(LIST, 3)).toBe('f1 / f2 / f3');
    expect(folderPath(LIST, null)).toBe('');
  });
});
