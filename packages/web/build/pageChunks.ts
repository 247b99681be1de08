/**
 * Groups the exam page's code into few chunks. Left to itself, the bundler split what the exam page loads before an
 * editor into some 45 files, one per set of pages sharing a module; each was fetched and compressed on its own, so
 * the candidate paid a request and a fresh compression window for pieces of a few hundred bytes. This plugin reads
 * the module graph once it is complete and names two groups for the chunking step: the shell (the entry and what it
 * imports statically) and the exam page (what the exam route imports statically that no other lazily loaded module
 * does, so no other page loads it with them). Each group becomes one chunk; everything else is split as before.
 */
import type { Plugin } from 'vite';
import { reachable } from './pageWeight.js';

/** The module ids each group captures, filled when the build's module graph is complete. */
export interface PageGroups {
  shell: Set<string>;
  exam: Set<string>;
}

/** What the plugin needs of a module: its static and dynamic imports. */
export interface ModuleEdges {
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
}

/** Module ids of `roots` and everything they import statically, transitively. */
export function staticModules(roots: readonly string[], edges: (id: string) => ModuleEdges | null): Set<string> {
  return new Set(reachable(roots, (id) => edges(id)?.importedIds ?? []));
}

/**
 * The two groups of a module graph: the shell is `entry`'s static closure; the exam page's group is `exam`'s static
 * closure less the shell and less what any other lazily loaded module reaches statically. Contract modules are left
 * to the bundler: the contract's index imports every area, so a static closure would name the console's areas too,
 * and the bundler already places the ones a page uses.
 */
export function pageGroups(
  ids: readonly string[],
  edges: (id: string) => ModuleEdges | null,
  entry: string,
  exam: string,
  leaveOut: RegExp,
): PageGroups {
  const shell = staticModules([entry], edges);
  const lazyRoots = new Set(ids.flatMap((id) => edges(id)?.dynamicallyImportedIds ?? []));
  lazyRoots.delete(exam);
  const elsewhere = staticModules([...lazyRoots], edges);
  const examOnly = new Set([...staticModules([exam], edges)].filter((id) => !shell.has(id) && !elsewhere.has(id)));
  for (const set of [shell, examOnly]) for (const id of set) if (leaveOut.test(id)) set.delete(id);
  return { shell, exam: examOnly };
}

/** The plugin that fills `groups` from the module graph, given the entry's and the exam route's source paths. */
export function pageChunks(groups: PageGroups, entrySrc: RegExp, examSrc: RegExp, leaveOut: RegExp): Plugin {
  return {
    name: 'examhall-page-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const entry = ids.filter((id) => entrySrc.test(id));
      const exam = ids.filter((id) => examSrc.test(id));
      if (entry.length !== 1 || exam.length !== 1)
        throw new Error('page chunks: the entry or the exam page is missing');
      const found = pageGroups(ids, (id) => this.getModuleInfo(id), entry[0]!, exam[0]!, leaveOut);
      groups.shell = found.shell;
      groups.exam = found.exam;
    },
  };
}
