/**
 * Every export over the catalogue leaves one audit entry: each staff call that answers a file (`download: true`)
 * or starts an export job names, in one entry, who took what (the object and the file) and how much of it (a
 * count of rows, questions or candidates; for an export job, its job, whose file's download is audited with its
 * rows). Inputs come from ACCESS_FIXTURES (test/accessFixtures.ts), so a new export call fails here, by name, until
 * it audits. Only the blank import templates, the same workbook for everyone, are not exports of anything.
 */
import { api, type CallDef, type CallName } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { auditEntriesSince, lastAuditId } from '../test/auditLog.js';
import { sendCall, worldApp } from '../test/callWorld.js';
import { ACCESS_FIXTURES } from '../test/accessFixtures.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

/** Downloads of a blank template: no team's data, the same file for every caller. */
const BLANK_TEMPLATES: ReadonlySet<CallName> = new Set<CallName>(['bankImportTemplate', 'candidateImportTemplate']);

/** The counts an export's entry may give, by what it exported. */
const COUNT_KEYS = ['rows', 'questions', 'candidates'] as const;

const exportCalls = (Object.entries(api) as [CallName, CallDef][]).filter(
  ([name, c]) => c.auth === 'staff' && (c.download === true || /export/i.test(name) || /export/i.test(c.path)),
);

describe('the catalogue', () => {
  it('has downloads and export jobs, and its blank templates take no resource', () => {
    expect(exportCalls.length).toBeGreaterThanOrEqual(6);
    expect(exportCalls.some(([, c]) => !c.download)).toBe(true);
    for (const name of BLANK_TEMPLATES) {
      const c = api[name] as CallDef;
      expect(c.download, name).toBe(true);
      expect([c.scope, c.teamFree], `${name} must stay a blank template`).toEqual([undefined, true]);
    }
  });
});

describe.each(await testedDialects())('exports are audited on %s', (dialect) => {
  const w = worldApp(dialect, { env: { FACE_WORKERS: '1' } });

  const lastId = () => lastAuditId(w.t);

  it.each(exportCalls.filter(([name]) => !BLANK_TEMPLATES.has(name)))(
    '%s leaves one entry naming the actor, the object, the file and a count',
    async (name, c) => {
      const fixture = ACCESS_FIXTURES[name];
      if (!fixture) {
        throw new Error(
          `${name} exports something but has no input: add ACCESS_FIXTURES.${name} in ` +
            'packages/server/src/test/accessFixtures.ts',
        );
      }
      const input = await fixture(w);
      const since = await lastId();
      const res = await sendCall(w.t, c, input, w.tokens.admin);
      expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBe(200);
      const started = c.download ? undefined : body<{ job_id?: number }>(res).data.job_id;
      if (started !== undefined) await waitForJob(w.t, w.tokens.admin, started);

      const entries = await auditEntriesSince(w.t, since);
      expect(
        entries.map((e) => e.action),
        `${name} must leave exactly one audit entry`,
      ).toHaveLength(1);
      const entry = entries[0]!;
      expect(entry).toMatchObject({ actor_kind: 'staff', actor_id: w.ids.admin });
      expect(entry.action, name).toMatch(/export|download/);
      expect(entry.object_kind, name).not.toBe('');
      const after = JSON.parse(entry.after ?? 'null') as Record<string, unknown> | null;
      expect(after, `${name}: the entry says what was exported`).not.toBeNull();
      if (c.download) {
        expect(after!.file_name, `${name}: the file's name`).toEqual(expect.any(String));
        const counts = COUNT_KEYS.filter((k) => Number.isInteger(after![k]) && (after![k] as number) >= 0);
        expect(counts, `${name}: a count of ${COUNT_KEYS.join(', ')} in ${entry.after}`).toHaveLength(1);
      } else {
        expect(after!.job_id, `${name}: the export job`).toBe(started);
      }
    },
  );

  it('the counts are what the file holds', async () => {
    const audited = async (action: string) => {
      const row = await w.t.db.handle.db
        .selectFrom('audit_log')
        .select(['after', 'object_id'])
        .where('action', '=', action)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return { objectId: row.object_id, after: JSON.parse(row.after!) as Record<string, unknown> };
    };
    const questions = await sendCall(
      w.t,
      api.bankExportQuestions,
      await ACCESS_FIXTURES.bankExportQuestions!(w),
      w.tokens.authorA,
    );
    expect(questions.statusCode).toBe(200);
    expect((await audited('bank.export_questions')).after).toMatchObject({ questions: 1, format: 'gift' });

    const invited = await w.t.db.handle.db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('exam_id', '=', w.examId)
      .executeTakeFirstOrThrow();
    const csv = await sendCall(
      w.t,
      api.examCandidatesExport,
      { query: { exam_id: w.examId, format: 'csv' } },
      w.tokens.admin,
    );
    expect(csv.statusCode).toBe(200);
    const candidates = await audited('exam.candidates_export');
    expect(candidates).toMatchObject({ objectId: w.examId, after: { candidates: Number(invited.n), format: 'csv' } });
    // One line per candidate under the header.
    expect(csv.body.trim().split('\n')).toHaveLength(Number(invited.n) + 1);
  });
});
