/**
 * Fault: the object store is out of the browser's reach for a while (a minute at full scale: FAULT_FULL=true, or
 * FAULT_STORE_SECONDS; CI runs a shorter outage). Uploads are refused at the connection for the first half, as a store
 * that is down, and answered 503 for the second, as a gateway in front of it answers.
 * The camera and screen pictures, the picture of a risk event and the microphone recording taken meanwhile are kept by
 * the browser and uploaded once the store answers again: every upload that was refused ends up in storage with its
 * record, once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { enterDemoExam, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';

/** The shortest capture interval an exam may set, so a short outage still spans several captures. */
const CAPTURE_INTERVAL_S = 5;
/**
 * The records of the uploads themselves (a risk record may name a frame as its evidence too: the face monitor's,
 * when the camera shows no face).
 */
const EVIDENCE_RECORDS = `image_key IS NOT NULL AND kind IN ('frame', 'screen', 'pertinent', 'byte')`;
const OUTAGE_S = Number(process.env.FAULT_STORE_SECONDS) || (process.env.FAULT_FULL === 'true' ? 60 : 15);

describe.runIf(browserAvailable())('fault: the object store unavailable', () => {
  const j = useJourney();
  let db: Database.Database;

  beforeAll(() => {
    db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'));
    const changed = db
      .prepare(`UPDATE exams SET settings = json_set(settings, '$.capture_interval', ?)`)
      .run(CAPTURE_INTERVAL_S).changes;
    expect(changed).toBeGreaterThan(0);
  });
  afterAll(() => db?.close());

  /** The stored records among `keys`, each with its object in the local store. */
  function recorded(keys: readonly string[]): string[] {
    const rows = db.prepare(`SELECT image_key FROM risk_records WHERE ${EVIDENCE_RECORDS}`).all() as {
      image_key: string;
    }[];
    const have = new Set(rows.map((r) => r.image_key));
    return keys.filter((k) => have.has(k) && existsSync(path.join(j.server.dataDir, 'objects', k)));
  }

  it(
    `loses no picture or recording taken while the store is away for ${OUTAGE_S} s`,
    async () => {
      const { context, page } = await newPage(j.browser, j.server.baseUrl);
      await loginAs(page, j.server);
      await enterDemoExam(page);
      // The store goes away as the exam opens, so the first microphone recording (a few seconds in) falls within it.
      const refused = new Set<string>();
      const answered503 = new Set<string>();
      // The first half refused at the connection (the store down), the second answered 503 (a gateway in front of it).
      const halfway = Date.now() + (OUTAGE_S * 1000) / 2;
      await context.route('**/storage/**', async (route) => {
        const req = route.request();
        if (req.method() === 'PUT') {
          // /storage/<bucket>/<key>
          const [, , ...parts] = new URL(req.url()).pathname.split('/').filter(Boolean);
          const key = parts.map(decodeURIComponent).join('/');
          refused.add(key);
          if (Date.now() >= halfway) answered503.add(key);
        }
        if (Date.now() < halfway) await route.abort('connectionrefused');
        else
          await route.fulfill({
            status: 503,
            contentType: 'application/xml',
            body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>down</Message></Error>',
          });
      });
      // A risk event (a translation marks <html>) is illustrated by a picture, taken while the store is away.
      await page.evaluate(() => document.documentElement.classList.add('translated-ltr'));
      await page.waitForTimeout(OUTAGE_S * 1000);
      await context.unroute('**/storage/**');
      const back = Date.now();

      const pictures = [...refused];
      const perKind = ['frame', 'screen', 'pertinent', 'byte'].map(
        (kind) => [kind, pictures.filter((k) => k.includes(`/${kind}/`)).length] as const,
      );
      for (const [kind, n] of perKind) expect(n, `${kind} uploads refused`).toBeGreaterThanOrEqual(1);
      const with503 = pictures.filter((k) => answered503.has(k)).length;
      expect(with503, 'pictures answered 503 during the outage').toBeGreaterThanOrEqual(1);
      expect(pictures.length, 'pictures were taken during the outage').toBeGreaterThanOrEqual(
        Math.floor(OUTAGE_S / CAPTURE_INTERVAL_S),
      );
      await expect
        .poll(() => recorded(pictures).length, { timeout: (CAPTURE_INTERVAL_S * 3 + 20) * 1000, interval: 500 })
        .toBe(pictures.length);
      const found = recorded(pictures).length;
      console.log(
        `[fault store-outage] store away ${OUTAGE_S} s: evidence uploads refused ${pictures.length} ` +
          `(${perKind.map(([kind, n]) => `${n} ${kind}`).join(', ')}; ${with503} answered 503), found ${found} ` +
          `(all stored with their records ${((Date.now() - back) / 1000).toFixed(1)} s after the store came back)`,
      );
      expect(found).toBe(pictures.length);
      // Sent again under the same name, each is recorded once.
      const records = db
        .prepare(`SELECT image_key, COUNT(*) AS n FROM risk_records WHERE ${EVIDENCE_RECORDS} GROUP BY image_key`)
        .all() as { image_key: string; n: number }[];
      for (const key of pictures) expect(records.find((r) => r.image_key === key)?.n, key).toBe(1);
      await context.close();
    },
    (OUTAGE_S + 180) * 1000,
  );
});
