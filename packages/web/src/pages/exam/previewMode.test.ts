import { describe, expect, it } from 'vitest';
import { describeKey, PREVIEW_STORAGE_KEY, readPreview, savePreview, type MarkerStorage } from './previewMode.js';

function memory(): MarkerStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('the preview marker', () => {
  it('is read back for its exam and invitation until it expires', () => {
    const s = memory();
    savePreview(s, { exam_id: 3, anid: 9, version_id: 12, expires_at: 1_000, show_keys: false });
    expect(readPreview(s, 3, 9, 500)).toEqual({
      exam_id: 3,
      anid: 9,
      version_id: 12,
      expires_at: 1_000,
      show_keys: false,
    });
    expect(readPreview(s, 3, 8, 500)).toBeNull();
    expect(readPreview(s, 4, 9, 500)).toBeNull();
    expect(readPreview(s, 3, 9, 1_000)).toBeNull();
  });

  it('is ignored when missing or unreadable', () => {
    const s = memory();
    expect(readPreview(s, 3, 9, 0)).toBeNull();
    s.data.set(PREVIEW_STORAGE_KEY, '{nope');
    expect(readPreview(s, 3, 9, 0)).toBeNull();
    s.data.set(PREVIEW_STORAGE_KEY, JSON.stringify({ exam_id: 3, anid: 9 }));
    expect(readPreview(s, 3, 9, 0)).toBeNull();
  });
});

describe('a key as lines', () => {
  it('names right options, blanks and option points', () => {
    expect(describeKey({ option: 'B' })).toEqual([{ label: 'option', value: 'B' }]);
    expect(describeKey({ options: ['A', 'C'] })).toEqual([{ label: 'options', value: 'A, C' }]);
    expect(describeKey({ blanks: [['O(n)', 'o(n)'], ['hash']] })).toEqual([
      { label: 'blank 1', value: 'O(n) | o(n)' },
      { label: 'blank 2', value: 'hash' },
    ]);
    expect(describeKey({ scores: { A: 0, B: 2 } })).toEqual([{ label: 'scores', value: 'A=0, B=2' }]);
  });

  it("walks sub-questions and never shows hidden cases' data or audio keys", () => {
    const lines = describeKey({
      subs: { '1': { option: 'A' }, '2': { blanks: [['x']] } },
      audio: { key: 'bank/a.mp3' },
      cases: [{ input: 'secret', output: 'secret' }],
      reference: { language: 'python3', source: 'print(1)' },
      checker: 'default',
      rubric: 'mentions hashing',
    });
    expect(lines).toEqual([
      { label: 'sub 1 option', value: 'A' },
      { label: 'sub 2 blank 1', value: 'x' },
      { label: 'hidden cases', value: '1' },
      { label: 'reference', value: 'python3' },
      { label: 'checker', value: 'default' },
      { label: 'rubric', value: 'mentions hashing' },
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});
