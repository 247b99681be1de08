/**
 * The team wall as a property: team A holds a candidate who was invited to, and sat, team A's exam; team B's author
 * makes every staff call an author may make, with its ids drawn from what names that candidate (the candidate,
 * the invitation, the attempt, a risk record, team A's exam) or from small numbers, and its phone fields holding the
 * candidate's phone. No answer or file may contain the candidate's name, e-mail, school or phone (masked included),
 * except the phone itself where team B typed it into the call.
 */
import { api, idFields, roleHas, type CallDef, type CallName } from '@examhall/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { maskPhone } from '../services/proctor.js';
import { authoredExam, inject, sendCall, type CallInput, worldApp } from '../test/callWorld.js';
import { ACCESS_FIXTURES } from '../test/accessFixtures.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

/** The staff calls an author's role may make (B's author stands for every team member with the most reach). */
const authorCalls = (Object.entries(api) as [CallName, CallDef][]).filter(
  ([, c]) => c.auth === 'staff' && (c.permission === undefined || roleHas('author', c.permission)),
);

/** Inputs of calls that name no team's resource, where team B's own fixture would hold no phone or search. */
const TEAM_B_INPUTS: Partial<Record<CallName, CallInput>> = {
  candidateCreate: { body: { phone: '13100000000', name: 'Team B' } },
  candidateList: { query: { q: 'Wall' } },
  examCandidates: { query: { exam_id: 1, q: 'Wall' } },
};

/** Sets `value` at `path` (numbers index arrays) in a copy of `input`, making the containers on the way. */
function setAt(input: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [step, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof step === 'number') {
    const list = Array.isArray(input) ? [...(input as unknown[])] : [];
    list[step] = setAt(list[step], rest, value);
    return list;
  }
  const obj = input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...input } : {};
  (obj as Record<string, unknown>)[step] = setAt((obj as Record<string, unknown>)[step], rest, value);
  return obj;
}

/** The paths of fields named `phone` in a body or query (a top-level phone, or a list of phones' objects). */
function phonePaths(input: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(input)) return input.flatMap((v, i) => phonePaths(v, [...at, i]));
  if (input === null || typeof input !== 'object') return [];
  return Object.entries(input).flatMap(([k, v]) => (k === 'phone' ? [[...at, k]] : phonePaths(v, [...at, k])));
}

describe.each(await testedDialects())("team B's staff never read team A's candidate, on %s", (dialect) => {
  const w = worldApp(dialect);
  /** Ids that name the candidate or what is theirs, and small numbers besides. */
  let pool: number[];
  let phone: string;
  /** What must not reach team B. */
  let secrets: string[];
  /** The phone, as typed and masked: it must not reach team B unless team B typed it. */
  let phoneForms: string[];
  /** Team B's author's inputs per call, made once (fixtures build team A's resources through team A's author). */
  const bases = new Map<CallName, CallInput>();

  beforeAll(async () => {
    const a = await w.newAttempt();
    phone = a.phone;
    const made = await inject(w.t, w.tokens.authorA, 'POST', '/admin/candidates', {
      phone,
      name: 'Wallname Zhang',
      email: 'wall.zhang@example.org',
      school: 'Wallschool University',
      major: 'Wallmajor',
    });
    const record = await w.newRecord(a.token);
    // Team B invites the same phone to its own exam: the person's profile that team A recorded stays team A's.
    const examB = (await authoredExam(w.t, w.tokens.authorB, true)).examId;
    const invited = await inject(w.t, w.tokens.authorB, 'POST', '/admin/exam/invite', {
      exam_id: examB,
      phones: [{ phone }],
    });
    if (typeof invited.job_id === 'number') await waitForJob(w.t, w.tokens.authorB, invited.job_id);
    pool = [made.id as number, a.anid, a.attemptId, record, w.examId, examB, 1, 2];
    secrets = ['Wallname', 'wall.zhang@example.org', 'Wallschool', 'Wallmajor'];
    phoneForms = [phone, maskPhone(phone)];
    for (const [name] of authorCalls) {
      const fixture = ACCESS_FIXTURES[name];
      bases.set(name, TEAM_B_INPUTS[name] ?? (fixture ? await fixture(w) : {}));
    }
  });

  it.each(authorCalls)('%s', async (name, c) => {
    const base = bases.get(name)!;
    const fields = [
      ...idFields(c.query).map((f) => ({ where: 'query' as const, path: f.path, text: f.kind === 'text' })),
      ...idFields(c.body).map((f) => ({ where: 'body' as const, path: f.path, text: f.kind === 'text' })),
    ];
    const phones = { query: phonePaths(base.query), body: phonePaths(base.body) };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...pool), { minLength: fields.length, maxLength: fields.length }),
        fc.boolean(),
        async (ids, usePhone) => {
          let query: unknown = base.query ?? {};
          let body: unknown = base.body;
          fields.forEach((f, i) => {
            const v = f.text ? String(ids[i]) : ids[i];
            if (f.where === 'query') query = setAt(query, f.path, v);
            else body = setAt(body, f.path, v);
          });
          if (usePhone) {
            for (const p of phones.query) query = setAt(query, p, phone);
            for (const p of phones.body) body = setAt(body, p, phone);
          }
          const input: CallInput = { ...base, query: query as CallInput['query'], body };
          const res = await sendCall(w.t, c, input, w.tokens.authorB);
          expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
          const text = res.rawPayload.toString('utf8');
          const typed = usePhone && phones.query.length + phones.body.length > 0;
          for (const secret of typed ? secrets : [...secrets, ...phoneForms]) {
            expect(text.includes(secret), `${name} reveals "${secret}" to team B: ${text.slice(0, 400)}`).toBe(false);
          }
        },
      ),
      {
        numRuns: 4,
        endOnFailure: true,
        // Besides random mixes, every id field holding each value of the pool, with and without the phone.
        examples: pool.flatMap((id) => [
          [fields.map(() => id), false],
          [fields.map(() => id), true],
        ]) as [number[], boolean][],
      },
    );
  });
});
