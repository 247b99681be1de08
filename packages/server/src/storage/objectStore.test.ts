/**
 * The embedded store's writes: a new object's folder is made only when it is missing (also after it was removed),
 * keys that clash with folders or objects are refused as conflicts, and create never replaces. Its digests: an
 * upload's is taken as it arrives and kept while the file is the same one, whatever another process does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { ObjectTooLargeError } from './digest.js';
import { KeyConflictError, LocalObjectStore, RecentDigests } from './objectStore.js';

describe('LocalObjectStore writes', () => {
  let root: string;
  let store: LocalObjectStore;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-store-'));
    store = new LocalObjectStore(path.join(root, 'objects'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('puts into a new folder, into the same folder again, and after the folders were removed', async () => {
    await store.put('exams/1/attempts/2/frame/a.jpg', Buffer.from('a'));
    await store.put('exams/1/attempts/2/frame/b.jpg', Buffer.from('b'));
    expect(await store.create('exams/1/attempts/2/frame/c.jpg', Buffer.from('c'))).toBe(true);
    fs.rmSync(path.join(root, 'objects'), { recursive: true });
    await store.put('exams/1/attempts/2/frame/d.jpg', Buffer.from('d'));
    expect(await store.create('exams/1/attempts/3/e.jpg', Buffer.from('e'))).toBe(true);
    expect((await store.get('exams/1/attempts/2/frame/d.jpg'))?.toString()).toBe('d');
    expect((await store.get('exams/1/attempts/3/e.jpg'))?.toString()).toBe('e');
    // No temp file is left behind.
    expect(fs.readdirSync(path.join(root, 'objects', '~tmp'))).toEqual([]);
  });

  it('refuses a key under an object, and a key naming a folder, as conflicts', async () => {
    await store.put('a/b', Buffer.from('object'));
    for (const write of [() => store.put('a/b/c', Buffer.from('x')), () => store.create('a/b/c', Buffer.from('x'))]) {
      const err = await write().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KeyConflictError);
      expect((err as KeyConflictError).kind).toBe('parent');
    }
    await store.put('f/g/h', Buffer.from('deeper'));
    const err = await store.put('f/g', Buffer.from('x')).catch((e: unknown) => e);
    expect((err as KeyConflictError).kind).toBe('folder');
    expect(fs.readdirSync(path.join(root, 'objects', '~tmp'))).toEqual([]);
  });

  it('puts a file (copied beside the store first) into a new folder, refuses the same conflicts, and keeps no temp file', async () => {
    const source = path.join(root, 'export.xlsx');
    fs.writeFileSync(source, 'workbook');
    expect(await store.putFile('exports/1/result.xlsx', source)).toEqual({ size: 8 });
    expect((await store.get('exports/1/result.xlsx'))?.toString()).toBe('workbook');
    const err = await store.putFile('exports/1/result.xlsx/x', source).catch((e: unknown) => e);
    expect((err as KeyConflictError).kind).toBe('parent');
    const missing = await store.putFile('exports/2/none.xlsx', path.join(root, 'none')).catch((e: unknown) => e);
    expect((missing as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(fs.readdirSync(path.join(root, 'objects', '~tmp'))).toEqual([]);
  });

  it('creates only where nothing is, never replacing', async () => {
    expect(await store.create('k/one', Buffer.from('first'))).toBe(true);
    expect(await store.create('k/one', Buffer.from('second'))).toBe(false);
    expect((await store.get('k/one'))?.toString()).toBe('first');
  });
});

describe('LocalObjectStore digests', () => {
  let root: string;
  let store: LocalObjectStore;
  const key = 'exams/1/attempts/2/frame/a.jpg';
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const jpeg = (n: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(n, 7)]);
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-store-'));
    store = new LocalObjectStore(path.join(root, 'objects'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('gives a created object the digest taken as it arrived, without reading the file back', async () => {
    const bytes = jpeg(5000);
    await store.create(key, bytes);
    const reads = [vi.spyOn(fs.promises, 'readFile'), vi.spyOn(fs, 'createReadStream')];
    try {
      expect(await store.digest(key)).toEqual({ sha256: sha(bytes), size: 5004, head: bytes.subarray(0, 64) });
      expect(reads.map((r) => r.mock.calls.length)).toEqual([0, 0]);
      // Another process's store has no digest of it: it reads the file.
      expect((await new LocalObjectStore(path.join(root, 'objects')).digest(key))?.sha256).toBe(sha(bytes));
      expect(reads[0]!.mock.calls.length).toBe(1);
    } finally {
      for (const r of reads) r.mockRestore();
    }
  });

  it('reads the file when it is not the one the digest was taken of: deleted and put again by another process', async () => {
    await store.create(key, jpeg(100));
    const other = new LocalObjectStore(path.join(root, 'objects'));
    await other.delete(key);
    expect(await store.digest(key)).toBeNull();
    const again = jpeg(100).fill(1, 4);
    expect(await other.create(key, again)).toBe(true);
    expect((await store.digest(key))?.sha256).toBe(sha(again));
    // Deleted here, it is forgotten here at once.
    await other.delete(key);
    const third = jpeg(50);
    await other.create(key, third);
    await store.delete(key);
    expect(await store.digest(key)).toBeNull();
  });

  it('digests an object put by other means, or of another process, from its bytes', async () => {
    const bytes = jpeg(3000);
    await new LocalObjectStore(path.join(root, 'objects')).create(key, bytes);
    expect(await store.digest(key)).toEqual({ sha256: sha(bytes), size: 3004, head: bytes.subarray(0, 64) });
    await store.put('exports/e.xlsx', Buffer.from('PK'));
    expect((await store.digest('exports/e.xlsx'))?.size).toBe(2);
  });

  it('refuses an object over the limit before reading it, and answers null for a missing key or a folder', async () => {
    await store.create(key, jpeg(2000));
    const err = await store.digest(key, 1000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObjectTooLargeError);
    expect((err as ObjectTooLargeError).size).toBe(2004);
    expect(await store.digest('exams/1/attempts/2/frame/none.jpg')).toBeNull();
    expect(await store.digest('exams/1/attempts/2')).toBeNull();
  });

  it('keeps the digests of the latest uploads only', () => {
    const recent = new RecentDigests(2);
    const id = (ino: number) => ({ ino, size: 1, mtimeMs: 1 });
    const d = (s: string) => ({ sha256: s, size: 1, head: Buffer.alloc(0) });
    recent.remember('a', id(1), d('a'));
    recent.remember('b', id(2), d('b'));
    recent.remember('c', id(3), d('c'));
    expect(recent.recall('a', id(1))).toBeNull();
    expect(recent.recall('b', id(2))?.sha256).toBe('b');
    expect(recent.recall('c', id(4))).toBeNull();
    // A mismatch drops the entry: the file it was taken of is gone.
    expect(recent.recall('c', id(3))).toBeNull();
  });
});
