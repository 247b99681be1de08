import { sql, type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { BankFolderTable, BankQuestionTable, Database } from '../db/schema.js';

/** A bank folder row. */
export type BankFolderRow = Selectable<BankFolderTable>;
/** A bank question row. */
export type BankQuestionRow = Selectable<BankQuestionTable>;

/** A question row with what the bank shows beside it: tags, how often used, author's and editor's names. */
export interface BankQuestionRecord extends BankQuestionRow {
  tags: string[];
  /** Exams whose item analysis flagged it (negative discrimination). */
  flags: BankFlagRecord[];
  used_count: number;
  author_name: string;
  editor_name: string;
}

/** An exam's item-analysis flag on a bank question. */
export interface BankFlagRecord {
  exam_id: number;
  exam_name: string;
  item_rest: number | null;
  upper_lower: number | null;
  n: number;
  flagged_at: number;
}

/** Which questions a list or count takes; every field narrows (and). */
export interface BankFilter {
  /** Only this team's (null: every team, for admins). */
  team: number | null;
  /** Only questions in these folders. */
  folderIds?: readonly number[] | undefined;
  /** Only questions in no folder. */
  unfiled?: boolean | undefined;
  kind?: string | undefined;
  difficulty?: number | undefined;
  tag?: string | undefined;
  knowledgePoint?: string | undefined;
  authorId?: number | undefined;
  /** Only questions an exam's item analysis flagged. */
  flagged?: boolean | undefined;
  /** Text the plain stem must contain (Latin letters in any case). */
  text?: string | undefined;
}

/** Sort and page of a list. */
export interface BankPage {
  sort: 'updated' | 'difficulty' | 'used' | 'id';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** The columns a question's editable fields are stored in. */
export type BankQuestionWrite = Omit<Insertable<BankQuestionTable>, 'id' | 'revision'>;

/** `!` escapes LIKE's wildcards: no backslash, whose quoting differs between SQLite and PostgreSQL. */
const LIKE_ESCAPE = '!';

/** A LIKE pattern that matches `text` anywhere, with %, _ and the escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c)}%`;
}

/**
 * How many exams' versions contain a bank question: distinct exams of the frozen copies made from it in
 * versions that are not previews (a preview counts nowhere).
 */
function usedCount(eb: ExpressionBuilder<Database, 'bank_questions'>) {
  return eb
    .selectFrom('questions')
    .innerJoin('exam_versions', 'exam_versions.id', 'questions.version_id')
    .select((q) => q.fn.count<number>('questions.exam_id').distinct().as('n'))
    .whereRef('questions.bank_question_id', '=', 'bank_questions.id')
    .where('exam_versions.preview', '=', 0);
}

/** The conditions of a filter, on `bank_questions`. */
function conditions(eb: ExpressionBuilder<Database, 'bank_questions'>, f: BankFilter): Expression<SqlBool>[] {
  const c: Expression<SqlBool>[] = [];
  if (f.team !== null) c.push(eb('bank_questions.team_id', '=', f.team));
  if (f.folderIds) c.push(f.folderIds.length ? eb('bank_questions.folder_id', 'in', [...f.folderIds]) : eb.lit(false));
  if (f.unfiled) c.push(eb('bank_questions.folder_id', 'is', null));
  if (f.kind !== undefined) c.push(eb('bank_questions.kind', '=', f.kind));
  if (f.difficulty !== undefined) c.push(eb('bank_questions.difficulty', '=', f.difficulty));
  if (f.authorId !== undefined) c.push(eb('bank_questions.author_id', '=', f.authorId));
  if (f.flagged) {
    c.push(
      eb.exists(
        eb
          .selectFrom('item_flags')
          .select('item_flags.question_id')
          .whereRef('item_flags.bank_question_id', '=', 'bank_questions.id'),
      ),
    );
  }
  if (f.tag !== undefined) {
    c.push(
      eb.exists(
        eb
          .selectFrom('bank_question_tags')
          .select('bank_question_tags.question_id')
          .whereRef('bank_question_tags.question_id', '=', 'bank_questions.id')
          .where('bank_question_tags.tag', '=', f.tag),
      ),
    );
  }
  if (f.knowledgePoint !== undefined) {
    // The JSON array's text holds each point as a quoted JSON string: matching the quoted form matches one
    // whole element (a quote inside an element is escaped, so it cannot end a match early).
    const pattern = containsPattern(JSON.stringify(f.knowledgePoint));
    c.push(sql<SqlBool>`${sql.ref('bank_questions.knowledge_points')} like ${pattern} escape '!'`);
  }
  if (f.text !== undefined && f.text !== '') {
    // lower() on both sides: PostgreSQL's LIKE is case-sensitive; SQLite's lower() folds ASCII only, which is
    // what its LIKE does anyway. Chinese has no case, and LIKE finds it anywhere in the text on both.
    c.push(
      sql<SqlBool>`lower(${sql.ref('bank_questions.stem_text')}) like lower(${containsPattern(f.text)}) escape '!'`,
    );
  }
  return c;
}

/** The question bank's tables: folders, questions, tags, and the exam copies that count as uses. */
export class BankRepository {
  constructor(private readonly db: Db) {}

  // ------------------------------------------------------------ folders

  /** Folders of a team (null: every team), with how many questions each holds directly. */
  async folders(team: number | null): Promise<(BankFolderRow & { question_count: number })[]> {
    let q = this.db
      .selectFrom('bank_folders')
      .selectAll('bank_folders')
      .select((eb) =>
        eb
          .selectFrom('bank_questions')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('bank_questions.folder_id', '=', 'bank_folders.id')
          .as('question_count'),
      );
    if (team !== null) q = q.where('bank_folders.team_id', '=', team);
    const rows = await q.orderBy('bank_folders.name').orderBy('bank_folders.id').execute();
    return rows.map((r) => ({ ...r, question_count: Number(r.question_count ?? 0) }));
  }

  /** Questions of a team (null: every team) in no folder. */
  async unfiledCount(team: number | null): Promise<number> {
    let q = this.db
      .selectFrom('bank_questions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('folder_id', 'is', null);
    if (team !== null) q = q.where('team_id', '=', team);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /** A folder. */
  folder(id: number): Promise<BankFolderRow | undefined> {
    return this.db.selectFrom('bank_folders').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every folder of the same team as a folder: the tree a move happens in. */
  teamFolders(team: number | null): Promise<BankFolderRow[]> {
    return this.db
      .selectFrom('bank_folders')
      .selectAll()
      .where((eb) => (team === null ? eb('team_id', 'is', null) : eb('team_id', '=', team)))
      .execute();
  }

  /** A sibling with this name (another folder under the same parent of the same team), if any. */
  sibling(
    team: number | null,
    parentId: number | null,
    name: string,
    except?: number,
  ): Promise<BankFolderRow | undefined> {
    let q = this.db
      .selectFrom('bank_folders')
      .selectAll()
      .where((eb) => (team === null ? eb('team_id', 'is', null) : eb('team_id', '=', team)))
      .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
      .where('name', '=', name);
    if (except !== undefined) q = q.where('id', '!=', except);
    return q.executeTakeFirst();
  }

  /** Creates a folder. */
  createFolder(row: Insertable<BankFolderTable>): Promise<BankFolderRow> {
    return this.db.insertInto('bank_folders').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Renames and/or moves a folder. */
  async updateFolder(id: number, patch: { name: string; parent_id: number | null }): Promise<void> {
    await this.db.updateTable('bank_folders').set(patch).where('id', '=', id).execute();
  }

  /** What a folder holds directly: sub-folders and questions. */
  async folderContents(id: number): Promise<{ folders: number; questions: number }> {
    const [folders, questions] = await Promise.all([
      this.db
        .selectFrom('bank_folders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('parent_id', '=', id)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('bank_questions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('folder_id', '=', id)
        .executeTakeFirstOrThrow(),
    ]);
    return { folders: Number(folders.n), questions: Number(questions.n) };
  }

  /** Deletes a folder. */
  async deleteFolder(id: number): Promise<void> {
    await this.db.deleteFrom('bank_folders').where('id', '=', id).execute();
  }

  // ------------------------------------------------------------ questions

  /** One page of questions matching a filter, and how many match in all. */
  async list(filter: BankFilter, page: BankPage): Promise<{ rows: BankQuestionRecord[]; total: number }> {
    const base = this.db.selectFrom('bank_questions').where((eb) => eb.and(conditions(eb, filter)));
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let q = base.selectAll('bank_questions').select((eb) => usedCount(eb).as('used_count'));
    // Ties fall back to the id, so pages never overlap.
    if (page.sort === 'updated') q = q.orderBy('bank_questions.updated_at', page.order);
    else if (page.sort === 'difficulty') q = q.orderBy('bank_questions.difficulty', page.order);
    else if (page.sort === 'used') q = q.orderBy('used_count', page.order);
    const rows = await q.orderBy('bank_questions.id', page.order).offset(page.offset).limit(page.limit).execute();
    return { rows: await this.complete(rows), total: Number(counted.n) };
  }

  /** Questions by id, with tags, uses and names (missing ids are simply absent). */
  async byIds(ids: readonly number[]): Promise<BankQuestionRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('bank_questions')
      .selectAll('bank_questions')
      .select((eb) => usedCount(eb).as('used_count'))
      .where('bank_questions.id', 'in', [...ids])
      .orderBy('bank_questions.id')
      .execute();
    return this.complete(rows);
  }

  /** Adds tags and the names of author and editor to question rows. */
  private async complete(rows: (BankQuestionRow & { used_count: number | null })[]): Promise<BankQuestionRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const people = [...new Set(rows.flatMap((r) => [r.author_id, r.editor_id]))];
    const [tags, staff, flags] = await Promise.all([
      this.db
        .selectFrom('bank_question_tags')
        .select(['question_id', 'tag'])
        .where('question_id', 'in', ids)
        .orderBy('tag')
        .execute(),
      this.db.selectFrom('staff').select(['id', 'name']).where('id', 'in', people).execute(),
      this.db
        .selectFrom('item_flags as f')
        .innerJoin('exams as e', 'e.id', 'f.exam_id')
        .select([
          'f.bank_question_id',
          'f.exam_id',
          'e.name as exam_name',
          'f.item_rest',
          'f.upper_lower',
          'f.n',
          'f.flagged_at',
        ])
        .where('f.bank_question_id', 'in', ids)
        .orderBy('f.flagged_at', 'desc')
        .orderBy('f.question_id')
        .execute(),
    ]);
    const flagsOf = new Map<number, BankFlagRecord[]>();
    for (const { bank_question_id: id, ...f } of flags) {
      // One flag per exam: the latest version's analysis comes first.
      const list = flagsOf.get(id!) ?? [];
      if (!list.some((x) => x.exam_id === f.exam_id)) list.push({ ...f, n: Number(f.n) });
      flagsOf.set(id!, list);
    }
    const tagsOf = new Map<number, string[]>();
    for (const t of tags) tagsOf.set(t.question_id, [...(tagsOf.get(t.question_id) ?? []), t.tag]);
    const nameOf = new Map(staff.map((s) => [s.id, s.name]));
    return rows.map((r) => ({
      ...r,
      used_count: Number(r.used_count ?? 0),
      tags: tagsOf.get(r.id) ?? [],
      flags: flagsOf.get(r.id) ?? [],
      author_name: nameOf.get(r.author_id) ?? '',
      editor_name: nameOf.get(r.editor_id) ?? '',
    }));
  }

  /** Creates a question with its tags; answers its id. */
  async create(row: BankQuestionWrite, tags: readonly string[]): Promise<number> {
    const { id } = await this.db.insertInto('bank_questions').values(row).returning('id').executeTakeFirstOrThrow();
    await this.setTags(id, tags);
    return id;
  }

  /**
   * Replaces a question's fields (and tags, when given) if its revision is still `revision`, bumping it;
   * false when another change came first.
   */
  async update(
    id: number,
    revision: number,
    patch: Partial<BankQuestionWrite>,
    tags?: readonly string[],
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('bank_questions')
      .set((eb) => ({ ...patch, revision: eb('revision', '+', 1) }))
      .where('id', '=', id)
      .where('revision', '=', revision)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    if (tags) await this.setTags(id, tags);
    return true;
  }

  /** Replaces a question's tags. */
  private async setTags(id: number, tags: readonly string[]): Promise<void> {
    await this.db.deleteFrom('bank_question_tags').where('question_id', '=', id).execute();
    if (tags.length) {
      await this.db
        .insertInto('bank_question_tags')
        .values(tags.map((tag) => ({ question_id: id, tag })))
        .execute();
    }
  }

  /** Stores a reference-solution check if the question is still at `revision`; false when it changed meanwhile. */
  async setVerification(id: number, revision: number, verification: string): Promise<boolean> {
    const res = await this.db
      .updateTable('bank_questions')
      .set({ verification })
      .where('id', '=', id)
      .where('revision', '=', revision)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Deletes questions (their tags go with them). */
  async delete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .deleteFrom('bank_questions')
      .where('id', 'in', [...ids])
      .execute();
  }

  /** A team's questions (null: those of no team) whose plain text is one of `texts`, letter case aside. */
  async sameText(
    team: number | null,
    texts: readonly string[],
  ): Promise<{ id: number; kind: string; folder_id: number | null; stem_text: string }[]> {
    const out: { id: number; kind: string; folder_id: number | null; stem_text: string }[] = [];
    // In chunks: SQLite limits the parameters of one statement.
    for (let i = 0; i < texts.length; i += 500) {
      const chunk = texts.slice(i, i + 500);
      out.push(
        ...(await this.db
          .selectFrom('bank_questions')
          .select(['id', 'kind', 'folder_id', 'stem_text'])
          .where((eb) => (team === null ? eb('team_id', 'is', null) : eb('team_id', '=', team)))
          .where(sql<string>`lower(${sql.ref('stem_text')})`, 'in', chunk)
          .orderBy('id')
          .execute()),
      );
    }
    return out;
  }

  /** Every tag of a team's questions (null: every team) with how many carry it, most used first. */
  async tags(team: number | null): Promise<{ tag: string; count: number }[]> {
    let q = this.db
      .selectFrom('bank_question_tags as t')
      .innerJoin('bank_questions as b', 'b.id', 't.question_id')
      .select((eb) => ['t.tag', eb.fn.countAll<number>().as('count')])
      .groupBy('t.tag');
    if (team !== null) q = q.where('b.team_id', '=', team);
    const rows = await q.orderBy('count', 'desc').orderBy('t.tag').execute();
    return rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
  }

  /**
   * Ids of one team's questions (null: those of no team) in any of the folders, with any of the tags and
   * any of the difficulties; an absent or empty list does not narrow. Ascending.
   */
  async pool(rule: {
    team: number | null;
    folderIds?: readonly number[] | undefined;
    tags?: readonly string[] | undefined;
    difficulty?: readonly number[] | undefined;
  }): Promise<number[]> {
    let q = this.db
      .selectFrom('bank_questions')
      .select('bank_questions.id')
      .where((eb) =>
        rule.team === null ? eb('bank_questions.team_id', 'is', null) : eb('bank_questions.team_id', '=', rule.team),
      );
    if (rule.folderIds?.length) q = q.where('bank_questions.folder_id', 'in', [...rule.folderIds]);
    if (rule.difficulty?.length) q = q.where('bank_questions.difficulty', 'in', [...rule.difficulty]);
    const tags = rule.tags;
    if (tags?.length) {
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('bank_question_tags')
            .select('bank_question_tags.question_id')
            .whereRef('bank_question_tags.question_id', '=', 'bank_questions.id')
            .where('bank_question_tags.tag', 'in', [...tags]),
        ),
      );
    }
    return (await q.orderBy('bank_questions.id').execute()).map((r) => r.id);
  }
}
