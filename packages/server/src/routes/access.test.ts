/**
 * Access per resource over the whole route list: every staff call either names where its resources' ids are
 * (`scope`) or is marked team-free; every scoped call refuses team B's author (and, for an exam's resources,
 * a proctor not assigned to the exam) with 404 or 403 and leaves no trace, while team A's own author,
 * assigned proctor or an admin get past the check. Inputs come from ACCESS_FIXTURES (test/accessFixtures.ts).
 */
import { api, roleHas, STAFF_ROLES, type CallDef, type ResourceKind } from '@examhall/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { sendCall, type Caller, worldApp } from '../test/callWorld.js';
import { ACCESS_FIXTURES } from '../test/accessFixtures.js';
import { auditCount as countAuditEntries } from '../test/auditLog.js';
import { testedDialects } from '../test/db.js';
import { idFields } from '../test/idFields.js';
import { waitForJob } from '../test/jobs.js';

const staffCalls = (Object.entries(api) as [keyof typeof api, CallDef][]).filter(([, c]) => c.auth === 'staff');
const scopedCalls = staffCalls.filter(([, c]) => c.scope);

/** Kinds reached through an exam: a proctor or grader reaches them only by an assignment to the exam. */
const EXAM_BOUND: readonly ResourceKind[] = ['exam', 'attempt', 'record'];

/** The shape of an object schema, if it is one. */
function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  return (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
}

/** The least privileged caller who should get past the check: team A's author, its assigned proctor, or an admin. */
function insider(c: CallDef): Caller {
  if (roleHas('author', c.permission!)) return 'authorA';
  if (roleHas('proctor', c.permission!) && EXAM_BOUND.includes(c.scope!.kind)) return 'proctorA';
  return 'admin';
}

describe('the catalogue declares access', () => {
  it.each(staffCalls)('%s names a scope or is marked team-free, not both', (name, c) => {
    expect(
      Boolean(c.scope) !== Boolean(c.teamFree),
      `${name} (${c.method} ${c.path}) must declare either scope: { kind, field } (its service checks the ids with ` +
        'access.require) or teamFree: true (it acts on no team resource)',
    ).toBe(true);
  });

  it.each(scopedCalls)("%s's scope names a permission and a field of its query or body", (name, c) => {
    expect(c.permission, `${name} is scoped but names no permission`).toBeDefined();
    const field = c.scope!.field;
    const shapes = [shapeOf(c.query), shapeOf(c.body)].filter((s) => s !== undefined);
    // A schema that is not a plain object (a union, say) is not checked here; the calls below still run.
    if (shapes.length > 0) {
      expect(
        shapes.some((s) => field in s),
        `${name}: scope field ${field} is in neither its query nor its body`,
      ).toBe(true);
    }
  });
});

/** True when only an admin may make the call: an admin reaches every team's resources, so no id of it is walled. */
const adminOnly = (c: CallDef) =>
  c.permission !== undefined && STAFF_ROLES.every((r) => r === 'admin' || !roleHas(r, c.permission!));

describe('every id a staff call takes is checked', () => {
  const walled = staffCalls.filter(([, c]) => !adminOnly(c));
  it.each(walled)('%s declares each id field of its query and body as its scope or in refs', (name, c) => {
    for (const field of idFields(c)) {
      expect(
        field === c.scope?.field || c.refs?.[field] !== undefined,
        `${name} (${c.method} ${c.path}) takes ids in "${field}" but declares no rule for them: name its resource ` +
          "kind in the call's refs (checked in http/route.ts like the scope), or 'filter' (see IdRef in " +
          'packages/contract/src/api/define.ts)',
      ).toBe(true);
    }
  });

  it.each(staffCalls.filter(([, c]) => c.refs))('%s declares refs only for fields it has', (name, c) => {
    const fields = idFields(c);
    for (const path of Object.keys(c.refs!)) expect(fields, `${name}: refs names ${path}`).toContain(path);
  });

  it('a new id field without a rule is caught', () => {
    const bare = { ...api.invitationsBulk, refs: {} };
    expect(idFields(bare).filter((f) => f !== bare.scope!.field && !(f in bare.refs))).toEqual(['candidate_ids']);
  });
});

describe.each(await testedDialects())('access per resource on %s', (dialect) => {
  const w = worldApp(dialect);

  const auditCount = () => countAuditEntries(w.t);

  const describeRes = (res: LightMyRequestResponse) => `${res.statusCode} ${res.body.slice(0, 300)}`;

  it.each(scopedCalls)(
    "%s refuses another team's resource and a proctor not assigned to its exam, and lets team A through",
    async (name, c) => {
      const fixture = ACCESS_FIXTURES[name];
      if (!fixture) {
        throw new Error(
          `${name} has a scope but no fixture: add ACCESS_FIXTURES.${name} in packages/server/src/test/accessFixtures.ts ` +
            `(input for team A's ${c.scope!.kind} in ${c.scope!.field})`,
        );
      }
      const input = await fixture(w);
      const outsiders: Caller[] = EXAM_BOUND.includes(c.scope!.kind) ? ['authorB', 'proctorX'] : ['authorB'];
      for (const who of outsiders) {
        const before = await auditCount();
        const res = await sendCall(w.t, c, input, w.tokens[who]);
        expect([403, 404], `${name} as ${who}: ${describeRes(res)}`).toContain(res.statusCode);
        if (res.statusCode === 404 && c.method !== 'GET') expect(body(res).code).toBe('not_found');
        expect(await auditCount(), `${name} as ${who} left an audit entry`).toBe(before);
      }
      const who = insider(c);
      const res = await sendCall(w.t, c, input, w.tokens[who]);
      expect(
        [401, 403, 404],
        `${name} as ${who} (team A) should pass the access check: ${describeRes(res)}`,
      ).not.toContain(res.statusCode);
      expect(res.statusCode, `${name} as ${who}: ${describeRes(res)}`).toBeLessThan(500);
      // A call that queued a job: it ends (and leaves its audit entry) before the next call is counted.
      const started =
        res.statusCode === 200 && c.data === api.bankImport.data ? body<{ job_id?: unknown }>(res).data : undefined;
      if (typeof started?.job_id === 'number') await waitForJob(w.t, w.tokens[who], started.job_id);
    },
  );

  it('a role without the permission is refused with 403 before any resource is looked at', async () => {
    const res = await sendCall(w.t, api.proctorGrid, { query: { exam_id: 999_999 } }, w.tokens.authorA);
    expect([res.statusCode, body(res).code]).toEqual([403, 'forbidden']);
  });

  it("a missing resource and another team's answer alike, so existence is not revealed", async () => {
    const missing = await sendCall(w.t, api.examStaffList, { query: { exam_id: 999_999 } }, w.tokens.authorB);
    const foreign = await sendCall(w.t, api.examStaffList, { query: { exam_id: w.examId } }, w.tokens.authorB);
    expect([missing.statusCode, body(missing).code]).toEqual([404, 'not_found']);
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'not_found']);
    expect(body(missing).msg).toBe('no such exam 999999');
    expect(body(foreign).msg).toBe(`no such exam ${w.examId}`);
  });

  it('lists only what the caller may see: the proctor console shows assigned exams, an admin every exam', async () => {
    const list = async (who: Caller) =>
      body<{ list: { id: number }[] }>(await sendCall(w.t, api.proctorExams, {}, w.tokens[who])).data.list.map(
        (e) => e.id,
      );
    expect(await list('proctorA')).toContain(w.examId);
    expect(await list('proctorX')).not.toContain(w.examId);
    expect(await list('admin')).toContain(w.examId);
  });

  it('teamFilter and examFilter: admins see every team, others their own, a teamless author none', async () => {
    const a = (await w.t.services.staff.resolve(w.tokens.authorA))!;
    const admin = (await w.t.services.staff.resolve(w.tokens.admin))!;
    expect(w.t.services.access.teamFilter(admin)).toBeNull();
    expect(w.t.services.access.teamFilter(a)).toBe(w.teamId);
    expect(w.t.services.access.teamFilter({ ...a, teamId: null })).toBe(0);
    expect(w.t.services.access.examFilter(admin)).toEqual({ kind: 'all' });
    expect(w.t.services.access.examFilter(a)).toEqual({ kind: 'team', teamId: w.teamId });
    // A teamless author reaches no team's exam.
    await expect(
      w.t.services.access.require({ ...a, teamId: null }, 'exam.read', 'exam', w.examId),
    ).rejects.toMatchObject({ code: 'not_found' });
    // Several ids at once: one out of reach refuses them all, naming it.
    await expect(w.t.services.access.require(a, 'exam.read', 'exam', [w.examId, 999_998])).rejects.toMatchObject({
      code: 'not_found',
      message: 'no such exam 999998',
    });
    expect(await w.t.services.access.require(a, 'exam.read', 'attempt', [w.attemptId])).toEqual([
      { id: w.attemptId, teamId: w.teamId, examId: w.examId },
    ]);
  });
});
