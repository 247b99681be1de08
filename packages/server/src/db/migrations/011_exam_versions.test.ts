import { ExamDefinition } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { ExamCatalog } from '../../services/catalog.js';
import { testedDialects, withLegacyDb } from '../../test/db.js';

describe.each(await testedDialects())('migration 011 (exam versions) on %s', (dialect) => {
  it('turns each existing exam into its published version 1, with its sections, questions and attempts', async () => {
    await withLegacyDb(dialect, '010_bank', async ({ db, now, insert, handle, migrateRest }) => {
      const exam = {
        id: await insert('exams', {
          name: 'Legacy exam',
          description: '<p>old</p>',
          mode: 1,
          time_minutes: 45,
          start_at: now,
          end_at: now + 86_400_000,
          settings: JSON.stringify({ is_paste: 1, cutting_times: 2 }),
          created_at: now,
        }),
      };
      const section = await insert('exam_sections', {
        exam_id: exam.id,
        kind: 'linetest',
        title: 'Aptitude',
        order_num: 1,
      });
      const question = {
        id: await insert('questions', {
          exam_id: exam.id,
          section_id: section,
          kind: 'single',
          type: 1,
          order_num: 1,
          score: 5,
          content: JSON.stringify({
            stem: '<p>?</p>',
            options: [
              { id: 'A', content: 'a' },
              { id: 'B', content: 'b' },
            ],
          }),
          answer_key: JSON.stringify({ option: 'A' }),
        }),
      };
      await db
        .insertInto('positions')
        .values({
          exam_id: exam.id,
          title: 'Engineer',
          department: 'R&D',
          city: 'Shanghai',
          description: '',
          min_ratio: 0.5,
        })
        .execute();
      const candidate = await insert('candidates', { area_code: '86', phone: '13800138000', created_at: now });
      const invitation = await insert('invitations', {
        exam_id: exam.id,
        area_code: '86',
        phone: '13800138000',
        extra_minutes: 0,
        created_at: now,
      });
      const attempt = await insert('attempts', {
        exam_id: exam.id,
        candidate_id: candidate,
        invitation_id: invitation,
        mode: 1,
        phase: 2,
        created_at: now,
      });

      await migrateRest();

      const typed = handle.db;
      const row = await typed.selectFrom('exams').selectAll().where('id', '=', exam.id).executeTakeFirstOrThrow();
      const version = await typed.selectFrom('exam_versions').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'published', published_version_id: version.id, revision: 0 });
      expect(version).toMatchObject({ exam_id: exam.id, number: 1, preview: 0, published_at: now });
      const definition = ExamDefinition.parse(JSON.parse(version.definition));
      expect(definition).toMatchObject({
        name: 'Legacy exam',
        time_minutes: 45,
        settings: { is_paste: 1, cutting_times: 2, capture_interval: 30 },
        positions: [{ title: 'Engineer', min_ratio: 0.5 }],
        sections: [{ kind: 'linetest', title: 'Aptitude', items: [{ points: 5 }] }],
      });
      // The question went to the bank too, so the draft names it and the exam can be published again.
      const copy = await typed.selectFrom('questions').selectAll().executeTakeFirstOrThrow();
      const bank = await typed.selectFrom('bank_questions').selectAll().executeTakeFirstOrThrow();
      expect(copy.bank_question_id).toBe(bank.id);
      expect(definition.sections[0]).toEqual({
        kind: 'linetest',
        title: 'Aptitude',
        items: [{ question_id: bank.id, points: 5 }],
      });
      expect(bank).toMatchObject({ kind: 'single', type: 1, stem_text: '? a b', content: copy.content, team_id: null });
      const author = await typed
        .selectFrom('staff')
        .selectAll()
        .where('id', '=', bank.author_id)
        .executeTakeFirstOrThrow();
      expect(author).toMatchObject({ disabled: 1, phone: 'imported-content' });
      expect(ExamDefinition.parse(JSON.parse(row.draft!))).toEqual(definition);
      expect(
        await typed.selectFrom('attempts').select(['version_id', 'question_ids', 'preview']).executeTakeFirstOrThrow(),
      ).toEqual({ version_id: version.id, question_ids: null, preview: 0 });
      // The candidate side reads the version as it reads any other.
      const frozen = await new ExamCatalog(typed, () => now).version(version.id);
      expect([...frozen!.byId.keys()]).toEqual([question.id]);
      expect(frozen!.sections).toMatchObject([{ kind: 'linetest', draw_count: null, question_ids: [question.id] }]);
      expect(attempt).toBeGreaterThan(0);
    });
  });
});
