import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { BankRepository, type BankQuestionWrite } from './bank.js';
import { BankImportRepository, type StagedQuestion } from './bankImports.js';

const NOW = 1_750_000_000_000;

describe.each(await testedDialects())("an import's staged questions published on %s", (dialect) => {
  let t: TestDb;
  let author: number;
  beforeEach(async () => {
    t = await openTestDb(dialect);
    author = (
      await t.handle.db
        .insertInto('staff')
        .values({
          area_code: '86',
          phone: '13600000001',
          name: 'Author',
          role: 'admin',
          password_hash: '',
          disabled: 0,
          created_at: NOW,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterEach(async () => t.drop());

  const row = (n: number): BankQuestionWrite => ({
    team_id: null,
    folder_id: null,
    kind: 'single',
    type: 1,
    stem_text: `question ${n}`,
    content: '{}',
    answer_key: '{}',
    difficulty: 1 + (n % 5),
    knowledge_points: '[]',
    default_score: 1,
    author_id: author,
    editor_id: author,
    created_at: NOW,
    updated_at: NOW,
    verification: null,
  });

  const staged = (n: number): StagedQuestion => {
    const { team_id: _t, folder_id: _f, author_id: _a, created_at: _c, verification: _v, ...rest } = row(n);
    return { ...rest, folder_path: JSON.stringify(n % 4 === 0 ? ['sub'] : []), tags: JSON.stringify(tagsOf(n)) };
  };
  const tagsOf = (n: number) => (n % 3 === 0 ? [] : [`t${n}`, `shared${n % 2}`]);

  it('makes bank questions of the staged ones, each its own id in staged order with its own tags and folder', async () => {
    const bank = new BankRepository(t.handle.db);
    const staging = new BankImportRepository(t.handle.db);
    // one question first, so ids do not start at 1; a staged import of another batch stays staged
    await bank.create(row(-1), ['before']);
    await staging.stage('other', 0, [staged(0)]);
    const count = 1_203;
    const given = Array.from({ length: count }, (_, n) => staged(n));
    // staged in parts, the second part twice (a job's run that took over writes it again)
    await staging.stage('job:1', 0, given.slice(0, 600));
    await staging.stage('job:1', 600, given.slice(600));
    await staging.stage('job:1', 600, given.slice(600));
    expect(
      await t.handle.db.selectFrom('bank_questions').select('id').where('stem_text', 'like', 'question %').execute(),
    ).toHaveLength(1);
    const folder = await bank.createFolder({
      team_id: null,
      parent_id: null,
      name: 'sub',
      created_by: author,
      created_at: NOW,
    });
    expect((await staging.folderPaths('job:1')).sort()).toEqual(['["sub"]', '[]']);
    await staging.placeFolder('job:1', '["sub"]', folder.id);
    const ids = await staging.publish('job:1', { team_id: null, author_id: author, created_at: NOW + 1 });
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    const stored = await t.handle.db
      .selectFrom('bank_questions')
      .select(['id', 'stem_text', 'folder_id', 'created_at', 'author_id'])
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(stored.map((r) => [r.id, r]));
    expect(ids.map((id) => byId.get(id)!.stem_text)).toEqual(given.map((g) => g.stem_text));
    expect(ids.map((id) => byId.get(id)!.folder_id)).toEqual(given.map((_, n) => (n % 4 === 0 ? folder.id : null)));
    expect(stored.every((r) => Number(r.created_at) === NOW + 1 && r.author_id === author)).toBe(true);
    const tags = await t.handle.db
      .selectFrom('bank_question_tags')
      .select(['question_id', 'tag'])
      .where('question_id', 'in', ids)
      .execute();
    const tagged = new Map<number, string[]>();
    for (const r of tags) tagged.set(r.question_id, [...(tagged.get(r.question_id) ?? []), r.tag]);
    expect(ids.map((id) => (tagged.get(id) ?? []).sort())).toEqual(given.map((_, n) => [...tagsOf(n)].sort()));
    // published: nothing of it is staged any more; the other batch is untouched until discarded
    const left = await t.handle.db.selectFrom('bank_import_rows').select('batch').execute();
    expect(left.map((r) => r.batch)).toEqual(['other']);
    await staging.discard('other');
    expect(await t.handle.db.selectFrom('bank_import_rows').select('batch').execute()).toEqual([]);
  });

  it('publishes nothing for nothing staged', async () => {
    expect(
      await new BankImportRepository(t.handle.db).publish('none', {
        team_id: null,
        author_id: author,
        created_at: NOW,
      }),
    ).toEqual([]);
  });
});
