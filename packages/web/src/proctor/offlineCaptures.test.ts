import { IDBFactory } from 'fake-indexeddb';
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openOfflineImages, type OfflineImage } from './offlineImages.js';

function image(client_id: string, exam_id: number, trigger_time: number): OfflineImage {
  return {
    client_id,
    exam_id,
    kind: 'frame',
    name: `frame/${trigger_time}.jpg`,
    trigger_time,
    blob: new Blob([client_id], { type: 'image/jpeg' }),
  };
}

describe('offline pictures (offlineImages)', () => {
  it('keeps pictures per exam, oldest first, across reopening, until removed', async () => {
    const factory = new IDBFactory();
    const store = await openOfflineImages(factory);
    await store.put(image('c-3', 1, 300));
    await store.put(image('c-1', 1, 100));
    await store.put(image('other', 2, 50));
    await store.put(image('c-2', 1, 200));

    const reopened = await openOfflineImages(factory);
    const kept = await reopened.list(1);
    expect(kept.map((i) => i.client_id)).toEqual(['c-1', 'c-2', 'c-3']);
    expect(await kept[0]!.blob.text()).toBe('c-1');

    await reopened.remove('c-1');
    expect((await reopened.list(1)).map((i) => i.client_id)).toEqual(['c-2', 'c-3']);
    expect((await reopened.list(2)).map((i) => i.client_id)).toEqual(['other']);
  });
});
