/**
 * The service worker's build step: sw.js with the list of files the candidate's exam needs offline. That is the
 * entry and everything the candidate pages load, statically or lazily (the exam page's chunks, the code and
 * rich-text editors and their language modes, so a programming or Q&A question reloaded without a network still
 * opens), with their CSS and assets. The console and the phone page (another device) are not kept.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin, Rollup } from 'vite';

/**
 * Modules whose chunks (and what only they load) the service worker does not keep: the console's and the phone's
 * pages, and the exam page's face monitor (its library is large, its models come from the server, and it reads
 * only frames the server has recorded, so offline it has nothing to do).
 */
export const NOT_OFFLINE = /[\\/]src[\\/](pages[\\/](admin|phone)[\\/]|proctor[\\/]faceMonitor\.ts$)/;

/** Files of `public/` the shell needs besides the bundle, and the shell's own address. */
export const SHELL_FILES = ['/', '/favicon.svg'];

/** One built chunk as the selection reads it. */
export interface ChunkNode {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  /** CSS and assets the chunk brings. */
  files: string[];
}

/** The built files to keep offline: from the entries through static and dynamic imports, console and phone pages cut. */
export function offlineFiles(chunks: readonly ChunkNode[]): string[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const kept = new Set<string>();
  const visit = (name: string) => {
    const chunk = byName.get(name);
    if (!chunk || kept.has(name)) return;
    if (!chunk.isEntry && chunk.facadeModuleId && NOT_OFFLINE.test(chunk.facadeModuleId)) return;
    kept.add(name);
    for (const f of chunk.files) kept.add(f);
    for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
  return [...kept].sort();
}

/** The chunks of a bundle with the CSS and assets Vite attached to them. */
export function chunkNodes(bundle: Rollup.OutputBundle): ChunkNode[] {
  return Object.values(bundle).flatMap((item) => {
    if (item.type !== 'chunk') return [];
    const meta = (item as { viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> } }).viteMetadata;
    return [
      {
        fileName: item.fileName,
        isEntry: item.isEntry,
        facadeModuleId: item.facadeModuleId,
        imports: item.imports,
        dynamicImports: item.dynamicImports,
        files: meta ? [...meta.importedCss, ...meta.importedAssets] : [],
      },
    ];
  });
}

/** Emits sw.js from sw.template.js with the offline files (relative to where the assets are served). */
export function serviceWorker(templatePath: string): Plugin {
  return {
    name: 'examhall-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const assets = offlineFiles(chunkNodes(bundle));
      const version = createHash('sha256')
        .update([...SHELL_FILES, ...assets].join('\n'))
        .digest('hex')
        .slice(0, 16);
      const template = readFileSync(templatePath, 'utf8');
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: template
          .replace('__VERSION__', version)
          .replace('/* ASSETS */ []', JSON.stringify(assets))
          .replace('/* SHELL */ []', JSON.stringify(SHELL_FILES)),
      });
    },
  };
}
