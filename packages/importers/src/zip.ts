import { Unzip, UnzipInflate, unzipSync, type UnzipFile } from 'fflate';
import { refuse, Refusal } from './problems.js';
import type { ImportLimits, Where } from './types.js';

/** True when the bytes start like a zip archive. */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6)
  );
}

/** A path inside a package with `.`/`..` resolved, or null when it leaves the package or is absolute. */
export function safePath(name: string): string | null {
  if (name.includes('\0')) return null;
  const unified = name.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[A-Za-z]:/.test(unified)) return null;
  const out: string[] = [];
  for (const part of unified.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** Ratio checks start above this size: small files compress wildly without being bombs. */
const RATIO_FLOOR = 1024 * 1024;

/**
 * Reads an entry's bytes as they are inflated, given its path; it may throw a Refusal (a worksheet over its row
 * limit), which stops inflating there and refuses the file.
 */
export type EntryWatch = (path: string) => ((chunk: Uint8Array, final: boolean) => void) | null;

/**
 * Unpacks a zip in bounded memory: every entry's path must stay inside the package, and the declared sizes
 * (entries, total, per entry, ratio) are checked before anything is inflated; inflating stops as soon as an
 * entry yields more than it declared, the total passes the limit or `watch` refuses what it reads. Anything
 * hostile refuses the file.
 */
export function unzipSafely(
  bytes: Uint8Array,
  limits: ImportLimits,
  where: Where,
  watch?: EntryWatch,
): Map<string, Uint8Array> {
  if (!isZip(bytes)) refuse(where, 'zip_invalid', { detail: 'no zip signature' });
  const declared = new Map<string, number>();
  let total = 0;
  try {
    unzipSync(bytes, {
      filter: (info) => {
        if (info.name.endsWith('/')) return false;
        const path = safePath(info.name);
        if (path === null) refuse({ ...where, file: info.name }, 'zip_path_escape', { path: info.name });
        if (declared.size >= limits.zipEntries)
          refuse(where, 'zip_too_many_entries', { count: `${declared.size + 1}+`, limit: limits.zipEntries });
        if (info.originalSize > limits.zipEntryBytes)
          refuse({ ...where, file: path }, 'zip_bomb', { detail: `${info.originalSize} bytes in one entry` });
        if (info.originalSize > RATIO_FLOOR && info.originalSize > info.size * limits.zipRatio)
          refuse({ ...where, file: path }, 'zip_bomb', {
            detail: `ratio ${Math.round(info.originalSize / Math.max(1, info.size))}:1`,
          });
        total += info.originalSize;
        if (total > limits.zipTotalBytes)
          refuse(where, 'zip_bomb', { detail: `over ${limits.zipTotalBytes} bytes in all` });
        declared.set(path, info.originalSize);
        return false;
      },
    });
  } catch (e) {
    if (e instanceof Refusal) throw e;
    refuse(where, 'zip_invalid', { detail: e instanceof Error ? e.message : String(e) });
  }
  return inflate(bytes, declared, limits, where, watch);
}

/**
 * Inflates the entries, counting what comes out against what each declared and the total limit, and handing it
 * to `watch` as it comes.
 */
function inflate(
  bytes: Uint8Array,
  declared: Map<string, number>,
  limits: ImportLimits,
  where: Where,
  watch: EntryWatch | undefined,
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let total = 0;
  let failure: { path: string; detail: string } | null = null;
  let refusal: Refusal | null = null;
  const unzip = new Unzip((file: UnzipFile) => {
    const path = safePath(file.name);
    if (path === null || !declared.has(path) || failure || refusal) return;
    const limit = declared.get(path)!;
    const watcher = watch?.(path) ?? null;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (err, data, final) => {
      if (failure || refusal) return;
      if (err) {
        failure = { path, detail: err.message };
        return;
      }
      size += data.length;
      total += data.length;
      if (size > limit || total > limits.zipTotalBytes) {
        failure = { path, detail: `entry inflates past its declared ${limit} bytes` };
        file.terminate();
        return;
      }
      try {
        watcher?.(data, final);
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        refusal = e;
        file.terminate();
        return;
      }
      chunks.push(data);
      if (final) out.set(path, Buffer.concat(chunks));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const step = 64 * 1024;
  try {
    for (let i = 0; i < bytes.length && !failure && !refusal; i += step) {
      unzip.push(bytes.subarray(i, i + step), i + step >= bytes.length);
    }
  } catch (e) {
    failure ??= { path: '', detail: e instanceof Error ? e.message : String(e) };
  }
  if (refusal) throw refusal as Refusal;
  const failed = failure as { path: string; detail: string } | null;
  if (failed) {
    const at = failed.path ? { ...where, file: failed.path } : where;
    if (/inflates past/.test(failed.detail)) refuse(at, 'zip_bomb', { detail: failed.detail });
    refuse(at, 'zip_invalid', { detail: failed.detail });
  }
  return out;
}
