import { LANGUAGE_IDS, LANGUAGE_SKELETONS, LANGUAGE_TEMPLATES, LANGUAGES } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { judge } from '../judge.js';
import { availability, describeLanguages, LANGUAGE_SPECS } from './index.js';

// Julia and Dart have no Debian 12 package: on a host without them they are reported, not failed.
const OPTIONAL = new Set(['julia', 'dart']);
const CI = process.env.CI === 'true';

const cases = [
  { input: '1 2\n', expected: '3\n' },
  { input: '-5 5\n', expected: '0\n' },
  { input: '123456789 987654321\n', expected: '1111111110\n' },
];

describe('language registry', () => {
  it('has one entry per contract language with the contract’s mode and template', () => {
    expect([...LANGUAGE_SPECS.keys()]).toEqual(LANGUAGE_IDS);
    for (const l of LANGUAGES) {
      const spec = LANGUAGE_SPECS.get(l.id)!;
      expect(spec.mode).toBe(l.mode);
      expect(spec.template).toBe(LANGUAGE_TEMPLATES[l.id]);
    }
  });

  it('reports availability for every language, with a clear reason when missing', async () => {
    const list = await describeLanguages();
    expect(list).toHaveLength(21);
    for (const l of list) {
      if (!l.available) expect(l.reason).toMatch(/toolchain/);
    }
    const missing = list.filter((l) => !l.available).map((l) => `${l.id}: ${l.reason}`);
    if (missing.length) console.warn(`toolchains missing on this host:\n${missing.join('\n')}`);
  });
});

describe('A+B in every installed language', () => {
  for (const id of LANGUAGE_IDS) {
    it(`${id} gets AC`, async () => {
      const tool = await availability(id);
      if (!tool.available) {
        console.warn(`${id}: ${tool.reason}`);
        // Under CI every Debian-packaged toolchain must be there (scripts/install-toolchains.sh).
        if (CI && !OPTIONAL.has(id)) expect.fail(`${id}: ${tool.reason}`);
        const r = await judge({
          language: id,
          source: LANGUAGE_TEMPLATES[id],
          cases,
          timeLimitMs: 5000,
          memoryLimitMb: 256,
        });
        expect(r.verdict).toBe('SE');
        expect(r.message).toContain('toolchain not installed on this host');
        return;
      }
      // plaintext: the answer is the source itself, so it answers the first case only.
      const source = id === 'plaintext' ? '3\n' : LANGUAGE_TEMPLATES[id];
      const tests = id === 'plaintext' ? cases.slice(0, 1) : cases;
      const r = await judge({ language: id, source, cases: tests, timeLimitMs: 5000, memoryLimitMb: 256 });
      expect(r, JSON.stringify(r)).toMatchObject({ verdict: 'AC', total: tests.length });
      expect(r.cases.map((c) => c.verdict)).toEqual(tests.map(() => 'AC'));
      // The editor's frame for a starter builds and runs, and answers nothing: never a solution.
      if (id === 'plaintext') return;
      const frame = await judge({
        language: id,
        source: LANGUAGE_SKELETONS[id],
        cases: cases.slice(0, 1),
        timeLimitMs: 5000,
        memoryLimitMb: 256,
      });
      expect(frame, JSON.stringify(frame)).toMatchObject({ verdict: 'WA' });
    });
  }
});
