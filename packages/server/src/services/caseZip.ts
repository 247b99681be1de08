import { BANK_LIMITS, CODE_LIMITS } from '@examhall/contract';
import yauzl from 'yauzl';
import { AppError, fail } from '../errors.js';

/** One hidden case read from a zip: its name (path without extension), input and expected output. */
export interface ZipCase {
  name: string;
  input: string;
  output: string;
}

/** Limits of a zip of cases (BANK_LIMITS by default; tests pass smaller ones). */
export interface CaseZipLimits {
  /** Most files (directories and ignored entries count too). */
  files: number;
  /** Largest unpacked file, bytes. */
  fileBytes: number;
  /** Largest sum of unpacked files, bytes. */
  totalBytes: number;
  /** Most cases. */
  cases: number;
}

/** The bank's limits of a zip of cases. */
export const CASE_ZIP_LIMITS: CaseZipLimits = {
  files: BANK_LIMITS.casesZipFiles,
  fileBytes: BANK_LIMITS.caseFileBytes,
  totalBytes: BANK_LIMITS.casesTotalBytes,
  cases: CODE_LIMITS.cases,
};

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** Entries an archiver adds that are no case: macOS resource forks and hidden files. */
const ignored = (path: string) => path.startsWith('__MACOSX/') || (path.split('/').pop() ?? '').startsWith('.');

/** Reads one entry in full; yauzl fails the stream if it inflates to more than the size its header declared. */
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads hidden cases from a zip of `name.in` / `name.out` pairs (in folders or not). Refuses, with a 422
 * naming the file: a path outside the archive, a file that is neither .in nor .out, an .in without its .out
 * (or the reverse), text that is not UTF-8, and a file or archive larger than the limits once unpacked; the
 * sizes are checked before unpacking and again while unpacking (a zip bomb lies about them). Cases come in
 * natural order of their names ("2" before "10").
 */
export async function casesFromZip(
  data: Buffer,
  limits: CaseZipLimits = CASE_ZIP_LIMITS,
): Promise<{ cases: ZipCase[]; totalBytes: number }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (err) {
    throw fail('validation_error', `file: not a zip archive (${(err as Error).message})`);
  }
  try {
    if (zip.entryCount > limits.files) {
      throw fail('validation_error', `file: ${zip.entryCount} entries; at most ${limits.files}`);
    }
    const ins = new Map<string, Buffer>();
    const outs = new Map<string, Buffer>();
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      const path = entry.fileName;
      if (path.endsWith('/') || ignored(path)) continue;
      const dot = path.lastIndexOf('.');
      const ext = dot > path.lastIndexOf('/') ? path.slice(dot).toLowerCase() : '';
      if (ext !== '.in' && ext !== '.out') {
        throw fail('validation_error', `${path}: only .in and .out files belong in the archive`);
      }
      if (entry.uncompressedSize > limits.fileBytes) {
        throw fail(
          'validation_error',
          `${path}: ${MB(entry.uncompressedSize)} unpacked; at most ${MB(limits.fileBytes)}`,
        );
      }
      total += entry.uncompressedSize;
      if (total > limits.totalBytes) {
        throw fail('validation_error', `file: more than ${MB(limits.totalBytes)} unpacked`);
      }
      const name = path.slice(0, dot);
      const side = ext === '.in' ? ins : outs;
      if (side.has(name)) throw fail('validation_error', `${path}: appears twice`);
      side.set(name, await readEntry(zip, entry));
    }
    for (const name of ins.keys()) {
      if (!outs.has(name)) throw fail('validation_error', `${name}.in: has no matching ${name}.out`);
    }
    for (const name of outs.keys()) {
      if (!ins.has(name)) throw fail('validation_error', `${name}.out: has no matching ${name}.in`);
    }
    if (ins.size === 0) throw fail('validation_error', 'file: the archive holds no .in/.out pairs');
    if (ins.size > limits.cases) {
      throw fail('validation_error', `file: ${ins.size} cases; at most ${limits.cases}`);
    }
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    const text = (name: string, buf: Buffer) => {
      try {
        return utf8.decode(buf);
      } catch {
        throw fail('validation_error', `${name}: not UTF-8 text`);
      }
    };
    const names = [...ins.keys()].sort(new Intl.Collator('en', { numeric: true }).compare);
    const cases = names.map((name) => ({
      name: name.slice(0, 200),
      input: text(`${name}.in`, ins.get(name)!),
      output: text(`${name}.out`, outs.get(name)!),
    }));
    return { cases, totalBytes: total };
  } catch (err) {
    if (err instanceof AppError) throw err;
    // yauzl's own refusals name the entry: "invalid relative path: ../x.in", "absolute path: /etc/x.in",
    // "too many bytes in the stream" (an entry that inflates beyond its declared size), broken data.
    throw fail('validation_error', `file: ${(err as Error).message}`);
  } finally {
    zip.close();
  }
}
