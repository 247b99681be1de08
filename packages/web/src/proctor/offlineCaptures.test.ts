import { IDBFactory } from 'fake-indexeddb';
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openOfflineCaptures, type OfflineCapture } from './offlineCaptures.js';

function image(client_id: string, exam_id: number, trigger_time: number): OfflineCapture {
  return {
    client_id,
    exam_id,
    kind: 'frame',
    name: `frame/${trigger_time}.jpg`,
    trigger_time,
    blob: new Blob([client_id], { type: 'image/jpeg' }),
  };
}

describe('captures waiting to be sent (offlineCaptures)', () => {
  it('keeps pictures per exam, oldest first, across reopening, until removed', async () => {
    const factory = new IDBFactory();
    const store = await openOfflineCaptures(factory);
    await store.put(image('c-3', 1, 300));
    await store.put(image('c-1', 1, 100));
    await store.put(image('other', 2, 50));
    await store.put(image('c-2', 1, 200));

    const reopened = await openOfflineCaptures(factory);
    const kept = await reopened.list(1);
    expect(kept.map((i) => i.client_id)).toEqual(['c-1', 'c-2', 'c-3']);
    expect(await kept[0]!.blob.text()).toBe('c-1');

    await reopened.remove('c-1');
    expect((await reopened.list(1)).map((i) => i.client_id)).toEqual(['c-2', 'c-3']);
    expect((await reopened.list(2)).map((i) => i.client_id)).toEqual(['other']);
  });

  it("keeps a recording's and a risk picture's own fields and content type", async () => {
    const store = await openOfflineCaptures(new IDBFactory());
    await store.put({
      client_id: 'b-1',
      exam_id: 1,
      kind: 'byte',
      name: 'byte/100-b.webm',
      trigger_time: 100,
      blob: new Blob(['sound'], { type: 'audio/webm' }),
      duration_ms: 5_000,
    });
    await store.put({ ...image('p-1', 1, 200), kind: 'pertinent', risk_id: 42 });
    const [byte, pertinent] = await store.list(1);
    expect(byte).toMatchObject({ kind: 'byte', duration_ms: 5_000 });
    expect(byte!.blob.type).toBe('audio/webm');
    expect(pertinent).toMatchObject({ kind: 'pertinent', risk_id: 42 });
  });
});

describe('captures on a browser two candidates use in turn', () => {
  it("keeps each candidate's pictures to themselves, to be sent with their own login", async () => {
    let owner: number | null = 1;
    const factory = new IDBFactory();
    const store = await openOfflineCaptures(factory, () => owner);
    await store.put(image('mine', 1, 100));
    owner = 2;
    await store.put(image('theirs', 1, 200));
    expect((await store.list(1)).map((c) => [c.client_id, c.candidate_id])).toEqual([['theirs', 2]]);
    owner = 1;
    const reopened = await openOfflineCaptures(factory, () => owner);
    expect((await reopened.list(1)).map((c) => [c.client_id, c.candidate_id])).toEqual([['mine', 1]]);
    // Nobody known: every capture shows, as before candidates were noted.
    owner = null;
    expect((await reopened.list(1)).map((c) => c.client_id)).toEqual(['mine', 'theirs']);
  });
});
