/**
 * The bounds of a question file's preview over HTTP: a file at the limit of 20,000 questions answers its first
 * page with the totals while the app goes on answering candidates' calls (the file is read on a worker thread),
 * and files over the declared bounds are refused naming them. On SQLite alone: what is measured is the reading of
 * the file, which is the same on both dialects (routes/imports.test.ts covers the preview's queries on each).
 */
import { api, IMPORT_LIMITS, type ImportPreviewData } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { multipart } from '../test/multipart.js';

/** A GIFT file of `questions` questions, and `broken` ones (an answer block never closed) before every 80th. */
function giftFile(questions: number, broken = 0): Buffer {
  const blocks: string[] = [];
  for (let i = 1; i <= questions; i++) {
    if (i % 80 === 0 && i / 80 <= broken) blocks.push(`::B${i / 80}:: Never closed {=yes ~no`);
    blocks.push(`::Q${i}:: What is ${i} plus one? {=${i + 1} ~${i} ~${i + 2}}`);
  }
  return Buffer.from(`${blocks.join('\n\n')}\n`);
}

describe('question file previews within their bounds', () => {
  let t: TestApp;
  let author: string;
  let folderId: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    author = await t.loginStaff('admin');
    const made = await t.app.inject({
      method: 'POST',
      url: `/api${api.bankFolderCreate.path}`,
      headers: { authorization: `Bearer ${author}` },
      payload: { name: 'Bounds' },
    });
    folderId = body<{ id: number }>(made).data.id;
  });
  afterAll(async () => t.close());

  async function preview(name: string, data: Buffer) {
    const form = multipart({ folder_id: String(folderId) }, { name, type: 'text/plain', data });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api${api.bankImportPreview.path}`,
      payload: form.payload,
      headers: { authorization: `Bearer ${author}`, ...form.headers },
    });
    const b = body<ImportPreviewData>(res);
    return { http: res.statusCode, size: res.rawPayload.length, data: b.data, code: b.code, msg: b.msg };
  }

  it('answers the first page of a 20,000-question GIFT file with its totals, and other calls meanwhile', async () => {
    const file = giftFile(IMPORT_LIMITS.questions, 250);
    const started = performance.now();
    let done = false;
    const answer = preview('many.gift', file).finally(() => (done = true));
    // site-config every 100 ms while the preview runs, each timed from when it was due: a preview that held the
    // event loop would delay the timer itself.
    const lags: number[] = [];
    for (let k = 1; !done; k++) {
      const due = started + k * 100;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      if (!done) {
        const res = await t.app.inject({ method: 'GET', url: '/api/common/site-config' });
        expect(res.statusCode).toBe(200);
      }
      lags.push(performance.now() - due);
    }
    const r = await answer;
    expect(r.http, r.msg).toBe(200);
    expect(lags.length, 'the preview lasted long enough to be probed').toBeGreaterThan(3);
    expect(Math.max(...lags), 'site-config answers within 500 ms of being asked').toBeLessThan(500);
    expect(r.size, 'the answer is a page, not the file').toBeLessThan(300 * 1024);
    expect(r.data.counts).toEqual({
      questions: 20_000,
      valid: 20_000,
      problems: 250,
      errors: 250,
      warnings: 0,
      infos: 0,
    });
    expect(r.data.questions.map((q) => q.index)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(r.data.questions[49]!.stem).toBe('What is 50 plus one? 51 50 52');
    expect(r.data.problems).toHaveLength(IMPORT_LIMITS.previewProblems);
    expect(r.data.problems.every((p) => p.severity === 'error')).toBe(true);
  });

  it('refuses a file of more than 20,000 questions, naming the bound, before checking its questions', async () => {
    const r = await preview('too-many.gift', giftFile(IMPORT_LIMITS.questions + 1));
    expect([r.http, r.code, r.data]).toEqual([422, 'import_refused', { problem: 'too_many_questions', limit: 20_000 }]);
    expect(r.msg).toContain('more than 20000 questions');
  });

  it('refuses a file over 20 MB at the upload, naming the bound', async () => {
    const r = await preview('huge.gift', Buffer.alloc(IMPORT_LIMITS.fileBytes + 1, 0x20));
    expect([r.http, r.code, r.msg]).toEqual([413, 'payload_too_large', 'file: over the limit of 20 MB']);
  });
});
