/**
 * The kinds' folders (kinds/<kind>/): each holds one kind's renderer (render.ts), draft rules (draft.ts) and editor
 * (edit.ts), under the contract kind's name. The web app's lookups by kind are built here from the entries a glob
 * over the folders found, so adding a kind is its folder and nothing else; a test passes the product's folders and
 * one more, and checks them against the contract's kinds (folderProblems).
 */
import type { KindIndex } from '@examhall/contract';

/** What one of a kind's files exports: an entry naming its kind. */
export interface FolderEntry {
  kind: string;
}

/** The entries of one file of each kind's folder, by path ('./kinds/fill_blank/render.ts'), as a glob gives them. */
export type FolderFiles<E = unknown> = Readonly<Record<string, E>>;

/** One file of every kind's folder, looked up by kind. */
export interface KindFolders<E extends FolderEntry> {
  /** Each kind's entry by name (the kinds test checks that every contract kind has one). */
  readonly byKind: Readonly<Partial<Record<string, E>>>;
  /** A kind's entry (an error for a kind without one). */
  of(kind: string): E;
}

/** The folder of a file the glob found ('./kinds/fill_blank/render.ts' → 'fill_blank'). */
const folderOf = (path: string): string => /([^/]+)\/[^/]+$/.exec(path)?.[1] ?? path;

/** The entries of one file of each kind's folder, by the folder's name: the kind's. */
export function kindFolders<E extends FolderEntry>(files: FolderFiles<E>): KindFolders<E> {
  const byKind = Object.fromEntries(Object.entries(files).map(([path, entry]) => [folderOf(path), entry]));
  return {
    byKind,
    of(kind) {
      const entry = byKind[kind];
      if (!entry) throw new Error(`kinds/${kind}/ has no entry`);
      return entry;
    },
  };
}

/**
 * What is wrong with one file of the kinds' folders against the contract's kinds: a contract kind without the file,
 * a folder naming no contract kind, an entry naming another kind than its folder. Empty in the product (kinds test).
 */
export function folderProblems(index: Pick<KindIndex, 'kinds' | 'byKind'>, files: FolderFiles, file: string): string[] {
  const problems: string[] = [];
  const found = new Set<string>();
  for (const [path, entry] of Object.entries(files)) {
    const kind = folderOf(path);
    if (!index.byKind.has(kind)) problems.push(`${path}: no contract kind is named ${kind}`);
    else if ((entry as Partial<FolderEntry> | undefined)?.kind !== kind)
      problems.push(`${path}: exports no ${file} of kind ${kind}`);
    else found.add(kind);
  }
  for (const kind of index.kinds) if (!found.has(kind)) problems.push(`${kind}: no ${file}.ts in kinds/${kind}/`);
  return problems;
}
