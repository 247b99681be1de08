import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client.js';
import { sendPicked } from './uploads.js';

const file = (bytes: number) => new File([new Uint8Array(bytes)], 'cases.zip', { type: 'application/zip' });

describe('sendPicked', () => {
  it('never sends a file over the limit', async () => {
    const send = vi.fn();
    const percents: number[] = [];
    expect(await sendPicked(file(11), 10, send, (p) => percents.push(p))).toEqual({ ok: false, tooLarge: true });
    expect(send).not.toHaveBeenCalled();
    expect(percents).toEqual([]);
  });

  it("sends a file within the limit, telling 0 as it starts and whole percents after, and answers the server's data", async () => {
    const percents: number[] = [];
    const sent = await sendPicked(
      file(10),
      10,
      async (f, onProgress) => {
        for (const x of [0.333, 0.5, 1]) onProgress(x);
        return { bytes: f.size };
      },
      (p) => percents.push(p),
    );
    expect(sent).toEqual({ ok: true, data: { bytes: 10 } });
    expect(percents).toEqual([0, 33, 50, 100]);
  });

  it('says why a send failed', async () => {
    const sent = await sendPicked(
      file(1),
      10,
      () => Promise.reject(new ApiError('bad_request', 400, '1.in has no 1.out')),
      () => {},
    );
    expect(sent).toMatchObject({ ok: false, tooLarge: false });
    expect(!sent.ok && !sent.tooLarge && sent.reason).toContain('1.in has no 1.out');
  });
});
