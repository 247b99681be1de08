/**
 * The embedded store's writes: a new object's folder is made only when it is missing (also after it was removed),
 * keys that clash with folders or objects are refused as conflicts, and create never replaces.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyConflictError, LocalObjectStore } from './objectStore.js';

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
