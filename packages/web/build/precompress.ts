/**
 * Brotli and gzip copies of the built files, made once at build time (`x.js` gets `x.js.br` and `x.js.gz`), so the
 * server sends compressed bytes without compressing on every request. Node's zlib only: no extra binaries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** Files worth compressing: text formats (pictures and fonts are compressed already). Source maps are left out. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|wasm|webmanifest)$/;

/** Below this size a compressed copy saves less than its headers cost. */
export const MIN_COMPRESS_BYTES = 512;

/** Every file under `dir` (recursively, dot folders such as .vite/ left out), relative paths. */
function filesUnder(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const rel = path.join(prefix, e.name);
    return e.isDirectory() ? filesUnder(path.join(dir, e.name), rel) : [rel];
  });
}

/** Writes `.br` (quality 11) and `.gz` (level 9) beside each compressible file of `dir`; answers the files done. */
export function precompressDir(dir: string): string[] {
  const done: string[] = [];
  for (const rel of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(rel)) continue;
    const file = path.join(dir, rel);
    const body = fs.readFileSync(file);
    if (body.length < MIN_COMPRESS_BYTES) continue;
    fs.writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    fs.writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    done.push(rel);
  }
  return done;
}

/** Compresses the build output once it is written. */
export function precompress(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'examhall-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      if (!config) return;
      const done = precompressDir(path.resolve(config.root, config.build.outDir));
      config.logger.info(`precompressed ${done.length} files (brotli and gzip)`);
    },
  };
}
