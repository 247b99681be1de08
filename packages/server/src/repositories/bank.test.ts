import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { BankRepository, type BankQuestionWrite } from './bank.js';

const NOW = 1_750_000_000_000;

describe.each(await testedDialects())('storing many bank questions at once on %s', (dialect) => {
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

  it('answers each question its own id, in the order given, with its own tags, over several statements', async () => {
    const repo = new BankRepository(t.handle.db);
    // one question first, so ids do not start at 1, then enough for three statements
    await repo.create(row(-1), ['before']);
    const count = 1_203;
    const given = Array.from({ length: count }, (_, n) => ({
      row: row(n),
      tags: n % 3 === 0 ? [] : [`t${n}`, `shared${n % 2}`],
    }));
    const ids = await repo.createMany(given);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    const stored = await t.handle.db
      .selectFrom('bank_questions')
      .select(['id', 'stem_text'])
      .where('id', 'in', ids)
      .execute();
    const stemOf = new Map(stored.map((r) => [r.id, r.stem_text]));
    expect(ids.map((id) => stemOf.get(id))).toEqual(given.map((g) => g.row.stem_text));
    const tags = await t.handle.db
      .selectFrom('bank_question_tags')
      .select(['question_id', 'tag'])
      .where('question_id', 'in', ids)
      .execute();
    const tagsOf = new Map<number, string[]>();
    for (const r of tags) tagsOf.set(r.question_id, [...(tagsOf.get(r.question_id) ?? []), r.tag]);
    expect(ids.map((id) => (tagsOf.get(id) ?? []).sort())).toEqual(given.map((g) => [...g.tags].sort()));
  });

  it('stores nothing for no questions', async () => {
    expect(await new BankRepository(t.handle.db).createMany([])).toEqual([]);
  });
});
