import {
  QUESTION_KINDS,
  type BankQuestionItem,
  type BankQuestionListData,
  type BankQuestionView,
  type BankTagListData,
  type QuestionBody,
  type QuestionKind,
} from '@examhall/contract';
import { fail } from '../../errors.js';
import type { ServiceLog } from '../../log.js';
import { BankRepository, type BankFilter, type BankPage, type BankQuestionRecord } from '../../repositories/bank.js';
import type { StaffActor } from '../access.js';
import { checkQuestionBody, stemText } from '../questionBody.js';
import { type BankTxDeps, inTransaction, need, ownTeam, questionObject, unique, withSubFolders } from './common.js';
import {
  checkedBody,
  checkedExplanation,
  columns,
  explanationOf,
  parseStored,
  questionSnapshot,
  readStored,
  stringList,
  verificationOf,
  verificationState,
  type BankQuestionInput,
} from './stored.js';

/** What the question list takes, validated (the catalogue's query after parsing). */
export interface BankListInput {
  page: number;
  page_size: number;
  sort: BankPage['sort'];
  order: BankPage['order'];
  folder_id?: number | undefined;
  sub_folders: boolean;
  unfiled: boolean;
  kind?: QuestionKind | undefined;
  difficulty?: number | undefined;
  tag?: string | undefined;
  knowledge_point?: string | undefined;
  author_id?: number | undefined;
  /** Only questions an exam's item analysis flagged (absent: all). */
  flagged?: boolean | undefined;
  q?: string | undefined;
}

/** A likely duplicate of an imported question: a bank question of the same kind and plain text. */
export interface BankDuplicate {
  id: number;
  folder_id: number | null;
  /** The start of its plain stem. */
  stem: string;
}

/** What bank questions need. */
export interface BankQuestionDeps extends BankTxDeps {
  clock: () => number;
  log: ServiceLog;
}

/** Characters of plain stem a list item shows. */
const STEM_PREVIEW = 200;

/** What a question's view and its list item both show of its row. */
function rowFields(r: BankQuestionRecord) {
  return {
    id: r.id,
    team_id: r.team_id,
    folder_id: r.folder_id,
    type: r.type,
    difficulty: r.difficulty,
    knowledge_points: stringList(r.knowledge_points),
    tags: r.tags,
    default_score: r.default_score,
    author: { id: r.author_id, name: r.author_name },
    editor: { id: r.editor_id, name: r.editor_name },
    created_at: r.created_at,
    updated_at: r.updated_at,
    revision: r.revision,
    used_count: r.used_count,
    flags: r.flags,
  };
}

/**
 * Bank questions: the list (filtered, searched, sorted), one in full, create and update (each audited), likely
 * duplicates of imported bodies, and the tags in use.
 */
export class BankQuestionService {
  private readonly repo: BankRepository;

  constructor(private readonly deps: BankQuestionDeps) {
    this.repo = new BankRepository(deps.db);
  }

  /** One page of the questions the actor may see, filtered, searched and sorted. */
  async list(actor: StaffActor, q: BankListInput): Promise<BankQuestionListData> {
    const filter: BankFilter = {
      team: this.deps.access.teamFilter(actor),
      unfiled: q.unfiled,
      kind: q.kind,
      difficulty: q.difficulty,
      tag: q.tag,
      knowledgePoint: q.knowledge_point,
      authorId: q.author_id,
      flagged: q.flagged,
      text: q.q,
    };
    if (q.folder_id !== undefined) {
      const [folder] = await this.deps.access.require(actor, 'bank.read', 'folder', q.folder_id);
      filter.folderIds = q.sub_folders ? await withSubFolders([q.folder_id], folder!.teamId, this.repo) : [q.folder_id];
    } else {
      need(this.deps.access, actor, 'bank.read');
    }
    const { rows, total } = await this.repo.list(filter, {
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
    return { list: rows.map((r) => this.item(r)), total };
  }

  /** One question in full, with its key. */
  async get(actor: StaffActor, id: number): Promise<BankQuestionView> {
    await this.deps.access.require(actor, 'bank.read', 'question', id);
    return this.view(id);
  }

  /** A question as stored, parsed: `question_invalid` naming it when it no longer parses. */
  private async view(id: number, repo = this.repo): Promise<BankQuestionView> {
    const [r] = await repo.byIds([id]);
    if (!r) throw fail('not_found', `no such question ${id}`);
    const body = parseStored(r, this.deps.log);
    return {
      ...rowFields(r),
      kind: body.kind,
      question: body,
      explanation: explanationOf(r),
      verification: verificationOf(r, body),
    };
  }

  /** A list item: the row's metadata; a row that no longer parses is shown with its problem. */
  private item(r: BankQuestionRecord): BankQuestionItem {
    const read = readStored(r);
    return {
      ...rowFields(r),
      // A kind the registry no longer knows is shown as 'qa' (plain text), with the problem saying so.
      kind: QUESTION_KINDS.find((k) => k === r.kind) ?? 'qa',
      stem: r.stem_text.slice(0, STEM_PREVIEW),
      verification: read.body ? verificationState(r, read.body) : 'none',
      problem: read.problem,
    };
  }

  /** A body as the bank stores it (rich text sanitized, parsed again), or the path of its first problem. */
  checkBody(question: QuestionBody): { body: QuestionBody; problem: null } | { body: null; problem: string } {
    return checkQuestionBody(question);
  }

  /** The plain text of a body's stem, options, passage and sub-questions, as the list shows and search reads it. */
  plainText(body: QuestionBody): string {
    return stemText(body);
  }

  /**
   * Likely duplicates in a team's bank (null: questions of no team) of each body: questions of the same kind
   * whose plain stem text is the same, letter case aside. One list per body, in order.
   */
  async duplicates(team: number | null, bodies: readonly QuestionBody[]): Promise<BankDuplicate[][]> {
    const texts = bodies.map((b) => stemText(b).toLowerCase());
    const rows = await this.repo.sameText(team, unique(texts.filter(Boolean)));
    return bodies.map((b, i) =>
      rows
        .filter((r) => r.kind === b.kind && r.stem_text.toLowerCase() === texts[i])
        .map((r) => ({ id: r.id, folder_id: r.folder_id, stem: r.stem_text.slice(0, STEM_PREVIEW) })),
    );
  }

  /** Creates a question in a folder (its team's) or in none (the actor's team, or the one an admin names). */
  async create(
    actor: StaffActor,
    input: BankQuestionInput & { team_id?: number | null | undefined },
  ): Promise<BankQuestionView> {
    const body = checkedBody(input.question);
    const explanation = checkedExplanation(body, input);
    const folderId = input.folder_id ?? null;
    return inTransaction(this.deps, async ({ repo, audit, access }) => {
      let team: number | null;
      if (folderId !== null) team = (await access.require(actor, 'bank.manage', 'folder', folderId))[0]!.teamId;
      else {
        need(this.deps.access, actor, 'bank.manage');
        team = await ownTeam(actor, input.team_id, access);
      }
      const now = this.deps.clock();
      const id = await repo.create(
        {
          ...columns(body, explanation, input, actor, now),
          team_id: team,
          folder_id: folderId,
          author_id: actor.id,
          created_at: now,
          verification: null,
        },
        unique(input.tags),
      );
      const [created] = await repo.byIds([id]);
      await audit.record(actor, 'bank.question.create', questionObject(id), null, questionSnapshot(created!));
      return this.view(id, repo);
    });
  }

  /**
   * Replaces a question's fields if `revision` is still the stored one (else `revision_stale`, 409). Moving it
   * into a folder gives it the folder's team. A row that no longer parses can be fixed this way.
   */
  async update(
    actor: StaffActor,
    input: BankQuestionInput & { question_id: number; revision: number },
  ): Promise<BankQuestionView> {
    const id = input.question_id;
    const body = checkedBody(input.question);
    const explanation = checkedExplanation(body, input);
    return inTransaction(this.deps, async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'question', id);
      const [before] = await repo.byIds([id]);
      let team = before!.team_id;
      const folderId = input.folder_id === undefined ? before!.folder_id : input.folder_id;
      if (folderId !== null && folderId !== before!.folder_id) {
        team = (await access.require(actor, 'bank.manage', 'folder', folderId))[0]!.teamId;
      }
      const saved = await repo.update(
        id,
        input.revision,
        { ...columns(body, explanation, input, actor, this.deps.clock()), team_id: team, folder_id: folderId },
        unique(input.tags),
      );
      if (!saved) {
        throw fail(
          'revision_stale',
          `question ${id} is at revision ${before!.revision}, not ${input.revision}: someone saved it meanwhile; reload it`,
        );
      }
      const [after] = await repo.byIds([id]);
      await audit.record(
        actor,
        'bank.question.update',
        questionObject(id),
        questionSnapshot(before!),
        questionSnapshot(after!),
      );
      return this.view(id, repo);
    });
  }

  /** Tags of the questions the actor may see, with counts. */
  async tags(actor: StaffActor): Promise<BankTagListData> {
    need(this.deps.access, actor, 'bank.read');
    return { list: await this.repo.tags(this.deps.access.teamFilter(actor)) };
  }
}
