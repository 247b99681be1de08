/**
 * Fault: the object store is down for a while (every connection cut and new ones refused) while candidates' pages
 * upload and record camera pictures through two API processes. Uploads fail and the server cannot read what was
 * uploaded just before: it answers 503 `storage_unavailable` (never a 500), the pages keep those pictures and send
 * them again once the store is back. Every picture recorded is in the store with its record. CI cuts the store for
 * 5 s; at full scale (FAULT_FULL=true) for a minute. The browser's side of the same fault is e2e/storeOutage.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { flatPhoto } from '../bench/facePhotos.js';
import { attemptPrefix } from '../services/chain.js';
import { clusterForTests, clusterPartsHere, twoApis } from './answerChecks.js';
import { ApiFailure, apiCall, faultCandidates, faultSeconds } from './cluster.js';
import { PictureLoad, picturesFound } from './evidence.js';

describe.runIf(await clusterPartsHere())('fault: the object store unavailable under uploads', () => {
  const CANDIDATES = faultCandidates(6);
  const cluster = clusterForTests(CANDIDATES);

  it('loses no picture: those taken meanwhile are kept by the pages and recorded once the store is back', async () => {
    const [a, b] = await twoApis(cluster());
    const candidates = await cluster().candidates(a, CANDIDATES);
    const load = new PictureLoad({
      bases: () => [a.base, b.base],
      examId: cluster().examId,
      candidates,
      store: cluster().storeThroughProxy,
      everyMs: 300,
    });
    await sleep(2_000);
    // One page per candidate had uploaded a picture just before the store went away, and records it meanwhile.
    const late = await Promise.all(
      candidates.map(async (c) => {
        const clientId = randomUUID();
        const key = `${attemptPrefix({ id: c.attemptId, exam_id: cluster().examId })}frame/late-${clientId}.png`;
        const { sha256 } = await cluster().storeThroughProxy.put(key, flatPhoto(64, 48));
        const record = (base: string) =>
          apiCall(base, 'POST', '/monitor/capture', {
            token: c.token,
            ip: c.ip,
            body: {
              exam_id: cluster().examId,
              kind: 'frame',
              key,
              sha256,
              trigger_time: Date.now(),
              client_id: clientId,
            },
          });
        return { clientId, key, record };
      }),
    );
    await cluster().proxies.store.close();
    const down = Date.now();
    for (const p of late) {
      const refused = await p.record(a.base).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(ApiFailure);
      expect([(refused as ApiFailure).status, (refused as ApiFailure).code]).toEqual([503, 'storage_unavailable']);
    }
    await sleep(Math.max(0, faultSeconds(60, 5) * 1000 - (Date.now() - down)));
    const keptDuring = load.waiting;
    await cluster().proxies.store.open();
    const back = Date.now();
    await sleep(1_000);
    await load.stop(60_000);
    // The pages send the kept pictures again.
    for (const p of late) {
      await p.record(b.base);
      load.acknowledged.set(p.clientId, p.key);
    }

    const handle = cluster().db.open();
    try {
      const { found, ...missing } = await picturesFound(handle.db, cluster().store, load.acknowledged);
      console.log(
        `[fault store-outage] evidence uploads acknowledged ${load.acknowledged.size}, found ${found} ` +
          `(store away ${(back - down) / 1000} s, ${keptDuring} pictures waiting in the pages when it came back, ` +
          `${load.waiting} still waiting, ${load.refused.length} refused; missing: ${JSON.stringify(missing)})`,
      );
      console.log(`[fault] failures on the way: ${load.failureKinds() || 'none'}`);
      expect(load.waiting).toBe(0);
      expect(load.refused).toEqual([]);
      expect(keptDuring).toBeGreaterThan(0);
      expect([...load.failures.keys()].filter((k) => k.startsWith('record: 500'))).toEqual([]);
      expect(found).toBe(load.acknowledged.size);
    } finally {
      await handle.db.destroy();
    }
  }, 240_000);
});
