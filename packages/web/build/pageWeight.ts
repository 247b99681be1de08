/**
 * What a page of the built app downloads, read from Vite's manifest: the entry, the route module and every chunk
 * they import statically (transitively). Dynamic imports are left out: they load only when the page asks for
 * them (the code and rich-text editors on the questions that need them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of `.vite/manifest.json` (the fields this module reads). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/** Vite's build manifest: chunk key (source path, or `_name.js` for shared chunks) to chunk. */
export type Manifest = Record<string, ManifestChunk>;

/** The source of the exam page's route module, and of the editors it loads only on the questions that need them. */
export const EXAM_PAGE_SRC = 'src/pages/exam/ExamPage.tsx';
export const EDITOR_SRCS = ['src/exam/questions/CodeEditor.tsx', 'src/exam/questions/RichTextEditor.tsx'];

/** A page's JavaScript: its files and their sizes, raw and gzipped (level 9, as the server's precompressed copies). */
export interface PageWeight {
  files: string[];
  /** The manifest keys of the chunks (source paths or shared chunk names). */
  keys: string[];
  bytes: number;
  gzipBytes: number;
}

/** Reads the manifest of a built app (`build.manifest` writes it to `.vite/manifest.json`). */
export function readManifest(dist: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** The key of the HTML entry (index.html). */
export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!key) throw new Error('the manifest has no entry');
  return key;
}

/** `roots` and everything `next` leads to from them, transitively, each once. */
export function reachable(roots: readonly string[], next: (id: string) => readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const n of next(id)) visit(n);
  };
  for (const root of roots) visit(root);
  return [...seen];
}

/** The keys of `roots` and every chunk they import statically, transitively (dynamic imports not followed). */
export function staticClosure(manifest: Manifest, roots: string[]): string[] {
  return reachable(roots, (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    return chunk.imports ?? [];
  });
}

/**
 * The dynamic imports reachable from `keys` that are not among them: what the page may load later. The exam page's
 * budget holds only when these are the editors (and what only they import), so the test checks that too.
 */
export function dynamicImportsOf(manifest: Manifest, keys: string[]): string[] {
  const inPage = new Set(keys);
  const out = new Set<string>();
  for (const key of keys) for (const d of manifest[key]?.dynamicImports ?? []) if (!inPage.has(d)) out.add(d);
  return [...out].sort();
}

/** Sizes of the JavaScript files of `keys` in `dist`. */
export function weigh(dist: string, manifest: Manifest, keys: string[]): PageWeight {
  const files = [...new Set(keys.map((k) => manifest[k]?.file ?? ''))].filter((f) => f.endsWith('.js')).sort();
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const body = fs.readFileSync(path.join(dist, file));
    bytes += body.length;
    gzipBytes += gzipSync(body, { level: 9 }).length;
  }
  return { files, keys, bytes, gzipBytes };
}

/** The exam page's JavaScript before an editor loads: the entry and the exam route, with their static imports. */
export function examPageWeight(dist: string): PageWeight {
  const manifest = readManifest(dist);
  return weigh(dist, manifest, staticClosure(manifest, [entryKey(manifest), EXAM_PAGE_SRC]));
}

/** Source modules bundled into `files`, read from their source maps (paths as the maps give them). */
export function bundledSources(dist: string, files: string[]): string[] {
  const sources = new Set<string>();
  for (const file of files) {
    const map = path.join(dist, `${file}.map`);
    if (!fs.existsSync(map)) continue;
    for (const s of (JSON.parse(fs.readFileSync(map, 'utf8')) as { sources: string[] }).sources) sources.add(s);
  }
  return [...sources].sort();
}

/** "1,234.5 KB" for a byte count (1 KB = 1,000 bytes, as Vite's report). */
export function kb(bytes: number): string {
  return `${(bytes / 1000).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 })} KB`;
}
