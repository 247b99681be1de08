import { kindExamples, KIND_SPECS, QuestionBody, QUESTION_KINDS } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_AUDIO, DEMO_QUESTIONS } from './demoExam.js';

describe('the demo exam', () => {
  const all = Object.values(DEMO_QUESTIONS).flat();

  it('shows every example of every kind, each a valid question', () => {
    expect(new Set(all.map((q) => q.kind))).toEqual(new Set(QUESTION_KINDS));
    expect(all).toHaveLength(KIND_SPECS.reduce((n, s) => n + kindExamples(s.kind).length, 0));
    for (const q of all) expect(QuestionBody.safeParse(q).success, q.kind).toBe(true);
  });

  it('puts each question in a section its kind may appear in', () => {
    for (const [section, questions] of Object.entries(DEMO_QUESTIONS))
      for (const q of questions)
        expect(KIND_SPECS.find((s) => s.kind === q.kind)!.sections as readonly string[]).toContain(section);
  });

  it('stores the listening example’s audio under the key and with the length the example states', () => {
    const listening = all.find((q) => q.kind === 'listening')!;
    const body = QuestionBody.parse(listening);
    if (body.kind !== 'listening') throw new Error('not a listening question');
    expect(body.key.audio.key).toBe(DEMO_AUDIO.key);
    expect(body.content.audio.duration_s).toBeCloseTo(DEMO_AUDIO.seconds, 1);
  });
});
