import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  BANK_LIMITS,
  JUDGE_VERIFY_MS,
  BankVerification,
  parseQuestion,
  QUESTION_KINDS,
  QUESTION_REGISTRY,
  type BankAudioData,
  type BankBulkResult,
  type BankCasesData,
  type BankFolderNode,
  type BankFolderTree,
  type BankImageData,
  type BankQuestionItem,
  type BankQuestionListData,
  type BankQuestionView,
  type BankTagListData,
  type BankVerificationState,
  type BankVerifiedCase,
  type Permission,
  type QuestionBody,
  type QuestionKind,
} from '@examhall/contract';
import { availability, type CheckerSpec, type JudgeQueue, type JudgeTask } from '@examhall/judge';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import {
  BankRepository,
  type BankFilter,
  type BankFolderRow,
  type BankPage,
  type BankQuestionRecord,
} from '../repositories/bank.js';
import { BankImportRepository, type StagedQuestion } from '../repositories/bankImports.js';
import { FileRepository } from '../repositories/files.js';
import { audioSeconds, contentTypeOf } from '../storage/media.js';
import { contentMatches, sniffAudio } from '../storage/sniff.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { casesFromZip } from './caseZip.js';
import type { ServiceLog } from '../log.js';
import type { MediaLinks } from './media.js';
import type { Upload } from './profile.js';
import { checkQuestionBody, imageTargetOf, stemText, type ImageTarget } from './questionBody.js';
import { bodyOf } from './storedQuestion.js';

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

/** The fields of a question create or update, validated. */
export interface BankQuestionInput {
  folder_id?: number | null | undefined;
  question: QuestionBody;
  difficulty: number;
  knowledge_points: string[];
  tags: string[];
  default_score: number;
}

/** A bank question as publishing needs it: the typed body, its team and where its reference check stands. */
export interface PublishQuestion {
  id: number;
  teamId: number | null;
  kind: QuestionKind;
  /** Question type id (1..11, QuestionType). */
  type: number;
  body: QuestionBody;
  defaultScore: number;
  /** 'none' for kinds without a reference check, and for programming questions never checked. */
  verification: BankVerificationState;
  /** What failed ("hidden case 2 (2.in): WA") when the check failed; null otherwise. */
  problem: string | null;
}

/** A draw rule's pool: one team's questions (null: those of no team) in any of the folders (with their sub-folders), with any of the tags, of any of the difficulties; empty lists do not narrow. */
export interface PoolRule {
  team: number | null;
  folder_ids?: readonly number[] | undefined;
  tags?: readonly string[] | undefined;
  difficulty?: readonly number[] | undefined;
}

/** A likely duplicate of an imported question: a bank question of the same kind and plain text. */
export interface BankDuplicate {
  id: number;
  folder_id: number | null;
  /** The start of its plain stem. */
  stem: string;
}

/** One question of an import: the sub-folder path below the target folder, and its fields. */
export interface BankImportItem {
  folder: readonly string[];
  input: BankQuestionInput;
}

/** Questions an import stages in one transaction: short, so the candidates' writes go on in between. */
export const IMPORT_STAGE_ROWS = 500;

/**
 * The sub-folders of an import's target folder by path, found or created (within the folder depth) as the import
 * names them; counts those it created.
 */
class SubFolders {
  created = 0;
  private readonly made = new Map<string, number>();
  private tree: Map<number, BankFolderRow> | null = null;

  constructor(
    private readonly repo: BankRepository,
    private readonly team: number | null,
    private readonly root: number,
    private readonly actorId: number,
    private readonly clock: () => number,
  ) {}

  async of(path: readonly string[]): Promise<number> {
    let at = this.root;
    for (let i = 0; i < path.length; i++) {
      const key = JSON.stringify(path.slice(0, i + 1));
      const known = this.made.get(key);
      if (known !== undefined) {
        at = known;
        continue;
      }
      const found = await this.repo.sibling(this.team, at, path[i]!);
      if (found) at = found.id;
      else at = await this.create(at, path[i]!);
      this.made.set(key, at);
    }
    return at;
  }

  private async create(parent: number, name: string): Promise<number> {
    this.tree ??= byId(await this.repo.teamFolders(this.team));
    if (depthOf(this.tree, parent) + 1 >= BANK_LIMITS.folderDepth) {
      throw fail('validation_error', `folder: folders nest at most ${BANK_LIMITS.folderDepth} deep`);
    }
    const created = await this.repo.createFolder({
      team_id: this.team,
      parent_id: parent,
      name,
      created_by: this.actorId,
      created_at: this.clock(),
    });
    this.tree.set(created.id, created);
    this.created += 1;
    return created.id;
  }
}

/** A bank question to export: its typed body and metadata, and its folder path below the exported folder. */
export interface BankExportItem {
  id: number;
  body: QuestionBody;
  folder: string[];
  tags: string[];
  difficulty: number;
  knowledge_points: string[];
  default_score: number;
}

/** How long the editor's link to uploaded audio stays valid. */
const AUDIO_LINK_MS = 2 * 3_600_000;
/** Characters of plain stem a list item shows. */
const STEM_PREVIEW = 200;
/** Object keys of pictures: content-addressed, so the same picture is stored once and its URL never changes. */
const IMAGE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

/** A reference check as stored: the contract's, less `stale`, plus the digest of what was judged. */
const StoredVerification = BankVerification.omit({ stale: true }).extend({ fingerprint: z.string() });
type StoredVerification = z.infer<typeof StoredVerification>;

/** The object of a question's or folder's audit entries. */
const questionObject = (id: number) => ({ kind: 'question', id });
const folderObject = (id: number) => ({ kind: 'folder', id });

/** Each item once, in first-seen order. */
const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];

/** A JSON array of strings as stored, or [] when it is not one. */
function stringList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Parsed JSON, or the text itself when it is not JSON (for audit snapshots of broken rows). */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Digest of everything a reference check judged: when it changes, the check is stale. */
function fingerprint(body: QuestionBody): string {
  if (body.kind !== 'programming') return '';
  const { samples, time_limit_ms, memory_limit_mb } = body.content;
  const { checker, cases, reference } = body.key;
  return createHash('sha256')
    .update(JSON.stringify({ samples, time_limit_ms, memory_limit_mb, checker, cases, reference }))
    .digest('hex');
}

/**
 * A question's key for the audit log: hidden cases (megabytes) are summarized by count, size and digest,
 * which is enough to see that they changed.
 */
function auditKey(key: unknown): unknown {
  if (!key || typeof key !== 'object' || !Array.isArray((key as { cases?: unknown }).cases)) return key;
  const cases = (key as { cases: unknown[] }).cases;
  const json = JSON.stringify(cases);
  return {
    ...key,
    cases: {
      count: cases.length,
      bytes: Buffer.byteLength(json),
      sha256: createHash('sha256').update(json).digest('hex'),
    },
  };
}

/** A question as the audit log keeps it. */
function questionSnapshot(r: BankQuestionRecord): Record<string, unknown> {
  return {
    id: r.id,
    team_id: r.team_id,
    folder_id: r.folder_id,
    kind: r.kind,
    difficulty: r.difficulty,
    knowledge_points: stringList(r.knowledge_points),
    tags: r.tags,
    default_score: r.default_score,
    revision: r.revision,
    content: jsonOrText(r.content),
    key: auditKey(jsonOrText(r.answer_key)),
  };
}

/** A folder as the audit log keeps it. */
const folderSnapshot = (f: BankFolderRow) => ({ id: f.id, team_id: f.team_id, parent_id: f.parent_id, name: f.name });

/**
 * The question bank: folders (a tree per team), questions with their typed body and metadata, tags,
 * uploads of pictures, audio and hidden cases, and the judge's check of reference solutions. Every body is
 * checked against its kind's schema when written and when read; a stored row that no longer parses is
 * reported by id (`question_invalid`), never a 500. Access goes through `access` by resource id, and every
 * change is audited in its own transaction.
 */
export class BankService {
  private readonly repo: BankRepository;

  constructor(
    private readonly db: Db,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly store: ObjectStore,
    private readonly media: MediaLinks,
    private readonly queue: JudgeQueue,
    /** Where the API answers: pictures and audio are linked under it. */
    readonly apiPrefix: string,
    private readonly clock: () => number,
    private readonly log: ServiceLog,
  ) {
    this.repo = new BankRepository(db);
  }

  /** Refuses a role without the permission (calls on no single resource: lists filtered by team, uploads). */
  private need(actor: StaffActor, permission: Permission): void {
    if (!this.access.can(actor, permission)) throw fail('forbidden', `the ${actor.role} role lacks ${permission}`);
  }

  /** Runs `fn` in a transaction with the repository, the access check and the audit log bound to it. */
  private inTransaction<T>(
    fn: (tx: { trx: Db; repo: BankRepository; audit: AuditService; access: AccessService }) => Promise<T>,
    outer?: Db,
  ): Promise<T> {
    const run = (trx: Db) =>
      fn({ trx, repo: new BankRepository(trx), audit: this.audit.with(trx), access: this.access.with(trx) });
    return outer ? run(outer) : this.db.transaction().execute(run);
  }

  // ------------------------------------------------------------ folders

  /** The folder tree the actor may see, parents before children, with question counts. */
  async folders(actor: StaffActor): Promise<BankFolderTree> {
    this.need(actor, 'bank.read');
    const team = this.access.teamFilter(actor);
    const [rows, unfiled] = await Promise.all([this.repo.folders(team), this.repo.unfiledCount(team)]);
    return { list: treeOrder(rows), unfiled_count: unfiled };
  }

  /** The team a new top folder or a question in no folder belongs to. */
  private async ownTeam(actor: StaffActor, requested: number | null | undefined, access: AccessService) {
    if (actor.role === 'admin') {
      if (requested === undefined) return actor.teamId;
      if (requested !== null) await access.require(actor, 'bank.manage', 'team', requested);
      return requested;
    }
    if (actor.teamId === null) throw fail('forbidden', 'you belong to no team, so there is no bank to add to');
    if (requested !== undefined && requested !== actor.teamId) throw fail('not_found', `no such team ${requested}`);
    return actor.teamId;
  }

  /** Creates a folder: a top folder of the actor's team (or the team an admin names), or a sub-folder. */
  async createFolder(
    actor: StaffActor,
    body: { name: string; parent_id?: number | null | undefined; team_id?: number | null | undefined },
  ): Promise<BankFolderNode> {
    const parentId = body.parent_id ?? null;
    const row = await this.inTransaction(async ({ repo, audit, access }) => {
      let team: number | null;
      if (parentId !== null) {
        const [parent] = await access.require(actor, 'bank.manage', 'folder', parentId);
        team = parent!.teamId;
        const tree = byId(await repo.teamFolders(team));
        if (depthOf(tree, parentId) + 1 >= BANK_LIMITS.folderDepth) {
          throw fail('validation_error', `parent_id: folders nest at most ${BANK_LIMITS.folderDepth} deep`);
        }
      } else {
        this.need(actor, 'bank.manage');
        team = await this.ownTeam(actor, body.team_id, access);
      }
      if (await repo.sibling(team, parentId, body.name)) {
        throw fail('conflict', `name: there is already a folder "${body.name}" here`);
      }
      const created = await repo.createFolder({
        team_id: team,
        parent_id: parentId,
        name: body.name,
        created_by: actor.id,
        created_at: this.clock(),
      });
      await audit.record(actor, 'bank.folder.create', folderObject(created.id), null, folderSnapshot(created));
      return created;
    });
    return this.folderNode(actor, row.id);
  }

  /** Renames and/or moves a folder within its team's tree; never into itself or one of its sub-folders. */
  async updateFolder(
    actor: StaffActor,
    body: { folder_id: number; name?: string | undefined; parent_id?: number | null | undefined },
  ): Promise<BankFolderNode> {
    const id = body.folder_id;
    await this.inTransaction(async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'folder', id);
      const before = (await repo.folder(id))!;
      const parentId = body.parent_id === undefined ? before.parent_id : body.parent_id;
      const name = body.name ?? before.name;
      const tree = byId(await repo.teamFolders(before.team_id));
      if (parentId !== null && parentId !== before.parent_id) {
        const [parent] = await access.require(actor, 'bank.manage', 'folder', parentId);
        if (parent!.teamId !== before.team_id) {
          throw fail('validation_error', `parent_id: folder ${parentId} belongs to another team`);
        }
        // Walking up from the new parent must not meet the folder itself: that would close a cycle.
        for (let at: number | null = parentId; at !== null; at = tree.get(at)?.parent_id ?? null) {
          if (at === id) {
            throw fail('validation_error', `parent_id: folder ${id} cannot move into itself or one of its sub-folders`);
          }
        }
        const depth = depthOf(tree, parentId) + 1 + heightOf(tree, id);
        if (depth >= BANK_LIMITS.folderDepth) {
          throw fail('validation_error', `parent_id: folders nest at most ${BANK_LIMITS.folderDepth} deep`);
        }
      }
      if (
        (name !== before.name || parentId !== before.parent_id) &&
        (await repo.sibling(before.team_id, parentId, name, id))
      ) {
        throw fail('conflict', `name: there is already a folder "${name}" there`);
      }
      await repo.updateFolder(id, { name, parent_id: parentId });
      await audit.record(actor, 'bank.folder.update', folderObject(id), folderSnapshot(before), {
        ...folderSnapshot(before),
        name,
        parent_id: parentId,
      });
    });
    return this.folderNode(actor, id);
  }

  /** Deletes a folder that holds no sub-folder and no question. */
  async deleteFolder(actor: StaffActor, id: number): Promise<void> {
    await this.inTransaction(async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'folder', id);
      const before = (await repo.folder(id))!;
      const { folders, questions } = await repo.folderContents(id);
      if (folders > 0 || questions > 0) {
        throw fail(
          'folder_not_empty',
          `folder ${id} is not empty: ${folders} sub-folder(s) and ${questions} question(s); move or delete them first`,
        );
      }
      await repo.deleteFolder(id);
      await audit.record(actor, 'bank.folder.delete', folderObject(id), folderSnapshot(before), null);
    });
  }

  /** One folder as the tree shows it. */
  private async folderNode(actor: StaffActor, id: number): Promise<BankFolderNode> {
    const { list } = await this.folders(actor);
    const node = list.find((f) => f.id === id);
    if (!node) throw fail('not_found', `no such folder ${id}`);
    return node;
  }

  /** A folder and every folder below it. */
  private async withSubFolders(folderIds: readonly number[], team: number | null, repo = this.repo): Promise<number[]> {
    if (folderIds.length === 0) return [];
    const rows = await repo.teamFolders(team);
    const children = new Map<number, number[]>();
    for (const f of rows)
      if (f.parent_id !== null) children.set(f.parent_id, [...(children.get(f.parent_id) ?? []), f.id]);
    const out = new Set<number>();
    const stack = [...folderIds];
    while (stack.length) {
      const id = stack.pop()!;
      if (out.has(id)) continue;
      out.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    return [...out];
  }

  // ------------------------------------------------------------ questions

  /** One page of the questions the actor may see, filtered, searched and sorted. */
  async list(actor: StaffActor, q: BankListInput): Promise<BankQuestionListData> {
    const filter: BankFilter = {
      team: this.access.teamFilter(actor),
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
      const [folder] = await this.access.require(actor, 'bank.read', 'folder', q.folder_id);
      filter.folderIds = q.sub_folders ? await this.withSubFolders([q.folder_id], folder!.teamId) : [q.folder_id];
    } else {
      this.need(actor, 'bank.read');
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
    await this.access.require(actor, 'bank.read', 'question', id);
    return this.view(id);
  }

  /** A question as stored, parsed: `question_invalid` naming it when it no longer parses. */
  private async view(id: number, repo = this.repo): Promise<BankQuestionView> {
    const [r] = await repo.byIds([id]);
    if (!r) throw fail('not_found', `no such question ${id}`);
    const body = this.parseStored(r);
    return {
      id: r.id,
      team_id: r.team_id,
      folder_id: r.folder_id,
      kind: body.kind,
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
      question: body,
      verification: verificationOf(r, body),
    };
  }

  /**
   * A stored row read through the typed model (never a cast): its kind must be one the registry knows with
   * the type id stored beside it, its content and key JSON that parses. Its body, or the first problem.
   */
  private read(r: BankQuestionRecord): { body: QuestionBody; problem: null } | { body: null; problem: string } {
    const kind = QUESTION_KINDS.find((k) => k === r.kind);
    if (!kind) return { body: null, problem: `kind: no question kind '${r.kind}'` };
    if (QUESTION_REGISTRY[kind].type !== r.type) {
      return { body: null, problem: `type: ${kind} questions are type ${QUESTION_REGISTRY[kind].type}, not ${r.type}` };
    }
    let content: unknown;
    let key: unknown;
    try {
      content = JSON.parse(r.content);
      key = JSON.parse(r.answer_key);
    } catch {
      return { body: null, problem: 'content or key: not valid JSON' };
    }
    const parsed = parseQuestion(kind, content, key);
    return parsed.ok ? { body: parsed.body, problem: null } : { body: null, problem: parsed.problems[0] ?? 'invalid' };
  }

  /** The typed body of a stored row; `question_invalid` naming the question and its first problem otherwise. */
  private parseStored(r: BankQuestionRecord): QuestionBody {
    const read = this.read(r);
    if (read.problem !== null) {
      this.log.warn({ questionId: r.id, problem: read.problem }, 'stored bank question no longer parses');
    }
    return bodyOf({ id: r.id, ...read });
  }

  /** A list item: the row's metadata; a row that no longer parses is shown with its problem. */
  private item(r: BankQuestionRecord): BankQuestionItem {
    const read = this.read(r);
    return {
      id: r.id,
      team_id: r.team_id,
      folder_id: r.folder_id,
      // A kind the registry no longer knows is shown as 'qa' (plain text), with the problem saying so.
      kind: QUESTION_KINDS.find((k) => k === r.kind) ?? 'qa',
      type: r.type,
      stem: r.stem_text.slice(0, STEM_PREVIEW),
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
      verification: read.body ? verificationState(r, read.body) : 'none',
      problem: read.problem,
      flags: r.flags,
    };
  }

  /** A body as the bank stores it (rich text sanitized, parsed again), or the path of its first problem. */
  checkBody(question: QuestionBody): { body: QuestionBody; problem: null } | { body: null; problem: string } {
    return checkQuestionBody(question);
  }

  /** The typed body of an edit with its rich text sanitized; 422 with the path of the first problem otherwise. */
  private checkedBody(question: QuestionBody): QuestionBody {
    const checked = this.checkBody(question);
    if (checked.problem !== null) throw fail('validation_error', `question.${checked.problem}`);
    return checked.body;
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

  /**
   * Imported questions made ready to store: each body checked (`validation_error` at the first problem) and
   * turned into columns, before anything is written.
   */
  prepareImport(actor: StaffActor, items: readonly BankImportItem[]): StagedQuestion[] {
    const now = this.clock();
    return items.map((item) => ({
      ...this.columns(this.checkedBody(item.input.question), item.input, actor, now),
      folder_path: JSON.stringify(item.folder),
      tags: JSON.stringify(unique(item.input.tags)),
    }));
  }

  /**
   * Stages prepared questions `from` to `to` (exclusive) under an import's batch key, where no reader of the bank
   * sees them; a part staged twice (a job's run that took over) is the same part.
   */
  async stageImport(
    batch: string,
    prepared: readonly StagedQuestion[],
    from: number,
    to: number,
    outer?: Db,
  ): Promise<void> {
    await new BankImportRepository(outer ?? this.db).stage(batch, from, prepared.slice(from, to));
  }

  /** Forgets what an import staged (it failed or was cancelled). */
  async discardImport(batch: string): Promise<void> {
    await new BankImportRepository(this.db).discard(batch);
  }

  /**
   * Makes an import's staged questions bank questions in one transaction: under the target folder (its team's,
   * which the actor must reach), each in the sub-folder path it names (created when missing), with one audit entry
   * for the whole import (`summary` plus what was made). Nothing is published when any part fails. Their embedded
   * files must have been stored.
   */
  async publishImport(
    actor: StaffActor,
    folderId: number,
    batch: string,
    summary: Record<string, unknown>,
    /** A transaction of the caller's to run in (a job's checkpoint), instead of one of its own. */
    outer?: Db,
  ): Promise<{ ids: number[]; foldersCreated: number }> {
    return this.inTransaction(async ({ trx, repo, audit, access }) => {
      const [target] = await access.require(actor, 'bank.manage', 'folder', folderId);
      const team = target!.teamId;
      const staging = new BankImportRepository(trx);
      const folders = new SubFolders(repo, team, folderId, actor.id, this.clock);
      for (const path of await staging.folderPaths(batch)) {
        await staging.placeFolder(batch, path, await folders.of(JSON.parse(path) as string[]));
      }
      const ids = await staging.publish(batch, { team_id: team, author_id: actor.id, created_at: this.clock() });
      await audit.record(actor, 'bank.import', folderObject(folderId), null, {
        ...summary,
        questions: ids.length,
        question_ids: ids,
        folders_created: folders.created,
      });
      return { ids, foldersCreated: folders.created };
    }, outer);
  }

  /** The command line's import: prepared questions staged, then published; what was staged is forgotten on failure. */
  async importQuestions(
    actor: StaffActor,
    folderId: number,
    prepared: readonly StagedQuestion[],
    summary: Record<string, unknown>,
  ): Promise<{ ids: number[]; foldersCreated: number }> {
    const batch = `cli:${randomUUID()}`;
    try {
      for (let at = 0; at < prepared.length; at += IMPORT_STAGE_ROWS) {
        await this.stageImport(batch, prepared, at, at + IMPORT_STAGE_ROWS);
      }
      return await this.publishImport(actor, folderId, batch, summary);
    } catch (err) {
      await this.discardImport(batch);
      throw err;
    }
  }

  /**
   * Questions to export, with their metadata: a folder's (and its sub-folders', each with its path below the
   * folder) or chosen ones (no path), in folder then id order; a row that no longer parses is
   * `question_invalid`, never left out unsaid.
   */
  async forExport(
    actor: StaffActor,
    from: { folderId: number } | { ids: readonly number[] },
  ): Promise<BankExportItem[]> {
    let rows: BankQuestionRecord[];
    const pathOf = new Map<number, string[]>();
    if ('folderId' in from) {
      const [folder] = await this.access.require(actor, 'bank.read', 'folder', from.folderId);
      const tree = byId(await this.repo.teamFolders(folder!.teamId));
      const ids = await this.withSubFolders([from.folderId], folder!.teamId);
      for (const id of ids) {
        const path: string[] = [];
        for (let at: number | null = id; at !== null && at !== from.folderId; at = tree.get(at)?.parent_id ?? null) {
          path.unshift(tree.get(at)!.name);
        }
        pathOf.set(id, path);
      }
      rows = (
        await this.repo.list({ team: null, folderIds: ids }, { sort: 'id', order: 'asc', offset: 0, limit: 1_000_000 })
      ).rows;
      rows.sort(
        (a, b) =>
          (pathOf.get(a.folder_id!) ?? []).join('/').localeCompare((pathOf.get(b.folder_id!) ?? []).join('/')) ||
          a.id - b.id,
      );
    } else {
      await this.access.require(actor, 'bank.read', 'question', from.ids);
      const byIdRows = new Map((await this.repo.byIds(from.ids)).map((r) => [r.id, r]));
      rows = from.ids.map((id) => byIdRows.get(id)!);
    }
    return rows.map((r) => ({
      id: r.id,
      body: this.parseStored(r),
      folder: r.folder_id === null ? [] : (pathOf.get(r.folder_id) ?? []),
      tags: r.tags,
      difficulty: r.difficulty,
      knowledge_points: stringList(r.knowledge_points),
      default_score: r.default_score,
    }));
  }

  /** The columns of an edited question. */
  private columns(body: QuestionBody, input: BankQuestionInput, actor: StaffActor, now: number) {
    return {
      kind: body.kind,
      type: QUESTION_REGISTRY[body.kind].type,
      stem_text: stemText(body),
      content: JSON.stringify(body.content),
      answer_key: JSON.stringify(body.key),
      difficulty: input.difficulty,
      knowledge_points: JSON.stringify(unique(input.knowledge_points)),
      default_score: input.default_score,
      editor_id: actor.id,
      updated_at: now,
    };
  }

  /** Creates a question in a folder (its team's) or in none (the actor's team, or the one an admin names). */
  async create(
    actor: StaffActor,
    input: BankQuestionInput & { team_id?: number | null | undefined },
  ): Promise<BankQuestionView> {
    const body = this.checkedBody(input.question);
    const folderId = input.folder_id ?? null;
    return this.inTransaction(async ({ repo, audit, access }) => {
      let team: number | null;
      if (folderId !== null) team = (await access.require(actor, 'bank.manage', 'folder', folderId))[0]!.teamId;
      else {
        this.need(actor, 'bank.manage');
        team = await this.ownTeam(actor, input.team_id, access);
      }
      const now = this.clock();
      const id = await repo.create(
        {
          ...this.columns(body, input, actor, now),
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
    const body = this.checkedBody(input.question);
    return this.inTransaction(async ({ repo, audit, access }) => {
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
        { ...this.columns(body, input, actor, this.clock()), team_id: team, folder_id: folderId },
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

  /**
   * Applies one change to each question in a transaction: `change` answers the new columns and tags, or why
   * the question is kept as it is. Each change bumps the revision and is audited.
   */
  private async bulk(
    actor: StaffActor,
    action: string,
    ids: readonly number[],
    change: (
      r: BankQuestionRecord,
      tx: { access: AccessService },
    ) => Promise<{ folder_id?: number | null; team_id?: number | null; tags?: string[] } | string>,
  ): Promise<BankBulkResult> {
    const wanted = unique(ids);
    return this.inTransaction(async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'question', wanted);
      const rows = new Map((await repo.byIds(wanted)).map((r) => [r.id, r]));
      const result: BankBulkResult = { done: [], kept: [] };
      for (const id of wanted) {
        const before = rows.get(id)!;
        const outcome = await change(before, { access });
        if (typeof outcome === 'string') {
          result.kept.push({ id, reason: outcome });
          continue;
        }
        const { tags, ...patch } = outcome;
        const saved = await repo.update(
          id,
          before.revision,
          { ...patch, editor_id: actor.id, updated_at: this.clock() },
          tags,
        );
        if (!saved) {
          result.kept.push({ id, reason: 'changed by someone else meanwhile; try again' });
          continue;
        }
        const [after] = await repo.byIds([id]);
        await audit.record(actor, action, questionObject(id), questionSnapshot(before), questionSnapshot(after!));
        result.done.push(id);
      }
      return result;
    });
  }

  /** Moves questions into a folder (taking its team) or out of every folder. */
  async bulkMove(actor: StaffActor, ids: readonly number[], folderId: number | null): Promise<BankBulkResult> {
    // The target folder is checked once, in the bulk's transaction; its team becomes the questions'.
    let team: Promise<number | null> | undefined;
    return this.bulk(actor, 'bank.question.move', ids, async (_r, { access }) => {
      if (folderId === null) return { folder_id: null };
      team ??= access.require(actor, 'bank.manage', 'folder', folderId).then(([owner]) => owner!.teamId);
      return { folder_id: folderId, team_id: await team };
    });
  }

  /** Adds tags to questions; one already carrying them all, or that would carry too many, is kept. */
  async bulkTag(actor: StaffActor, ids: readonly number[], tags: readonly string[]): Promise<BankBulkResult> {
    return this.bulk(actor, 'bank.question.tag', ids, async (r) => {
      const next = unique([...r.tags, ...tags]);
      if (next.length === r.tags.length) return 'already carries every one of these tags';
      if (next.length > BANK_LIMITS.tags) return `would carry more than ${BANK_LIMITS.tags} tags`;
      return { tags: next };
    });
  }

  /** Removes tags from questions; one carrying none of them is kept. */
  async bulkUntag(actor: StaffActor, ids: readonly number[], tags: readonly string[]): Promise<BankBulkResult> {
    return this.bulk(actor, 'bank.question.untag', ids, async (r) => {
      const next = r.tags.filter((t) => !tags.includes(t));
      if (next.length === r.tags.length) return 'carries none of these tags';
      return { tags: next };
    });
  }

  /** Deletes questions; one that an exam version contains is kept (its exams still show and score it). */
  async bulkDelete(actor: StaffActor, ids: readonly number[]): Promise<BankBulkResult> {
    const wanted = unique(ids);
    return this.inTransaction(async ({ repo, audit, access }) => {
      await access.require(actor, 'bank.manage', 'question', wanted);
      const rows = await repo.byIds(wanted);
      const result: BankBulkResult = { done: [], kept: [] };
      for (const r of rows) {
        if (r.used_count > 0) {
          result.kept.push({ id: r.id, reason: `used by ${r.used_count} exam${r.used_count === 1 ? '' : 's'}` });
          continue;
        }
        await audit.record(actor, 'bank.question.delete', questionObject(r.id), questionSnapshot(r), null);
        result.done.push(r.id);
      }
      await repo.delete(result.done);
      return result;
    });
  }

  /** Tags of the questions the actor may see, with counts. */
  async tags(actor: StaffActor): Promise<BankTagListData> {
    this.need(actor, 'bank.read');
    return { list: await this.repo.tags(this.access.teamFilter(actor)) };
  }

  // ------------------------------------------------------------ uploads

  /** Stores bytes under a content-addressed key (once) and records who uploaded them, audited. */
  private async storeUpload(actor: StaffActor, action: string, key: string, file: Upload, mime: string, extra = {}) {
    if (!(await this.store.head(key))) await this.store.put(key, file.data);
    const sha256 = createHash('sha256').update(file.data).digest('hex');
    await this.inTransaction(async ({ trx, audit }) => {
      await new FileRepository(trx).record({
        key,
        owner_kind: 'staff',
        owner_id: actor.id,
        file_name: file.fileName.slice(0, 200),
        mime,
        size: file.data.length,
        sha256,
        created_at: this.clock(),
      });
      await audit.record(actor, action, { kind: 'file', id: null }, null, {
        key,
        file_name: file.fileName.slice(0, 200),
        mime,
        size: file.data.length,
        ...extra,
      });
    });
  }

  /** Stores a picture (PNG, JPEG, GIF or WebP by its bytes) and answers its public, content-addressed URL. */
  async uploadImage(actor: StaffActor, file: Upload): Promise<BankImageData> {
    this.need(actor, 'bank.manage');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (file.data.length > BANK_LIMITS.imageBytes) {
      throw fail('payload_too_large', `file: at most ${BANK_LIMITS.imageBytes / 1024 / 1024} MB`);
    }
    const target = this.imageTarget(file.data);
    if (!target) throw fail('unsupported_media_type', 'file: a picture must be a PNG, JPEG, GIF or WebP file');
    await this.storeUpload(actor, 'bank.upload.image', target.key, file, target.mime);
    return { ...target, size: file.data.length };
  }

  /**
   * Where a picture is stored and served, from its bytes alone (content-addressed: the same picture is one
   * object with one URL); null when the bytes are not a PNG, JPEG, GIF or WebP picture.
   */
  imageTarget(data: Buffer): ImageTarget | null {
    return imageTargetOf(data, this.apiPrefix);
  }

  /** Stores a picture at its `imageTarget` key, once (imports record the files in their own audit entry). */
  async putImage(data: Buffer): Promise<void> {
    const target = this.imageTarget(data);
    if (!target) throw new Error('not a picture');
    if (!(await this.store.head(target.key))) await this.store.put(target.key, data);
  }

  /** A stored picture by its public name, for `/media/images/:name`. */
  async image(name: string): Promise<{ stream: Readable; size: number; type: string }> {
    if (!IMAGE_NAME.test(name)) throw fail('not_found', 'no such picture');
    const key = `bank/images/${name}`;
    const found = await this.store.stream(key);
    if (!found) throw fail('not_found', 'no such picture');
    return { ...found, type: contentTypeOf(key) };
  }

  /** Stores listening audio (WAV, MP3, Ogg or M4A by its bytes), reading its length on the server. */
  async uploadAudio(actor: StaffActor, file: Upload): Promise<BankAudioData> {
    this.need(actor, 'bank.manage');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (file.data.length > BANK_LIMITS.audioBytes) {
      throw fail('payload_too_large', `file: at most ${BANK_LIMITS.audioBytes / 1024 / 1024} MB`);
    }
    const type = sniffAudio(file.data);
    if (!type) throw fail('unsupported_media_type', 'file: audio must be a WAV, MP3, Ogg or M4A file');
    const seconds = await audioSeconds(file.data, type);
    if (seconds === null) throw fail('validation_error', "file: the audio's length could not be read");
    // Tenths of a second, never 0: what the candidate's player shows and the play link's lifetime build on.
    const duration = Math.max(0.1, Math.round(seconds * 10) / 10);
    const key = `bank/audio/${createHash('sha256').update(file.data).digest('hex')}${type.ext}`;
    await this.storeUpload(actor, 'bank.upload.audio', key, file, type.mime, { duration_s: duration });
    const token = await this.media.sign(key, AUDIO_LINK_MS);
    return {
      key,
      url: `${this.apiPrefix}/media/audio?t=${encodeURIComponent(token)}`,
      mime: type.mime,
      size: file.data.length,
      duration_s: duration,
    };
  }

  /** Reads hidden cases from a zip of .in/.out pairs (nothing is stored: the editor puts them in the key). */
  async uploadCases(actor: StaffActor, file: Upload): Promise<BankCasesData> {
    this.need(actor, 'bank.manage');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (!contentMatches('application/zip', file.data))
      throw fail('unsupported_media_type', 'file: hidden cases come as a ZIP archive');
    const { cases, totalBytes } = await casesFromZip(file.data);
    await this.audit.record(actor, 'bank.upload.cases', { kind: 'file', id: null }, null, {
      file_name: file.fileName.slice(0, 200),
      size: file.data.length,
      cases: cases.length,
      unpacked_bytes: totalBytes,
    });
    return { cases, total_bytes: totalBytes };
  }

  // ------------------------------------------------------------ reference solutions

  /** Judges a programming question's reference solution on every case, for the editor (audited). */
  async verify(actor: StaffActor, id: number): Promise<BankVerification> {
    await this.access.require(actor, 'bank.manage', 'question', id);
    return this.verifyReference(id, actor);
  }

  /**
   * Judges a programming question's reference solution on every sample and hidden case and stores the
   * outcome with the revision it was made at (a later edit of what was judged makes it stale). `actor` is
   * who asked (audited); null when publishing asks. Waits for the judge.
   */
  async verifyReference(id: number, actor: StaffActor | null = null): Promise<BankVerification> {
    const [r] = await this.repo.byIds([id]);
    if (!r) throw fail('not_found', `no such question ${id}`);
    const body = this.parseStored(r);
    if (body.kind !== 'programming') {
      throw fail('validation_error', `question_id: question ${id} is a ${body.kind} question, not a programming one`);
    }
    const reference = body.key.reference;
    if (!reference) throw fail('validation_error', `key.reference: question ${id} has no reference solution`);
    const have = await availability(reference.language);
    if (!have.available) {
      throw fail(
        'language_unavailable',
        `${reference.language}: ${have.reason ?? 'toolchain not installed on this host'}`,
      );
    }
    const { samples } = body.content;
    const hidden = body.key.cases;
    const checker = body.key.checker;
    const task: JudgeTask = {
      language: reference.language,
      source: reference.source,
      cases: [
        ...samples.map((s) => ({ input: s.input, expected: s.output })),
        ...hidden.map((c) => ({ input: c.input, expected: c.output })),
      ],
      timeLimitMs: body.content.time_limit_ms,
      memoryLimitMb: body.content.memory_limit_mb,
      checker:
        typeof checker === 'string'
          ? checker
          : ({ kind: 'custom', language: checker.language, source: checker.source } satisfies CheckerSpec),
    };
    const result = await this.queue.wait(await this.queue.submit(task), JUDGE_VERIFY_MS);
    const cases: BankVerifiedCase[] = result.cases.map((c) => {
      const i = c.index - 1;
      const isSample = i < samples.length;
      const name = isSample ? undefined : hidden[i - samples.length]?.name;
      return {
        kind: isSample ? 'sample' : 'hidden',
        number: isSample ? i + 1 : i - samples.length + 1,
        ...(name ? { name } : {}),
        verdict: c.verdict,
        time_ms: c.time_ms,
        memory_kb: c.memory_kb,
      };
    });
    const ok = result.verdict === 'AC' && cases.length === task.cases.length && cases.every((c) => c.verdict === 'AC');
    const failed = cases.find((c) => c.verdict !== 'AC');
    const problem = ok
      ? null
      : result.verdict === 'CE'
        ? 'the reference solution does not compile'
        : failed
          ? `${failed.kind} case ${failed.number}${failed.name ? ` (${failed.name})` : ''}: ${failed.verdict}`
          : `the judge answered ${result.verdict}${result.message ? `: ${result.message}` : ''}`;
    const stored: StoredVerification = {
      revision: r.revision,
      ok,
      verdict: result.verdict,
      language: reference.language,
      cases,
      problem,
      ...(result.compileOutput ? { compile_output: result.compileOutput.slice(0, 10_000) } : {}),
      checked_at: this.clock(),
      fingerprint: fingerprint(body),
    };
    const kept = await this.inTransaction(async ({ repo, audit }) => {
      // Stored only if nobody saved the question while the judge ran; the answer says what was judged anyway.
      const saved = await repo.setVerification(id, r.revision, JSON.stringify(stored));
      if (saved && actor) {
        const { fingerprint: _f, ...after } = stored;
        await audit.record(actor, 'bank.question.verify', questionObject(id), parseVerification(r.verification), after);
      }
      return saved;
    });
    const { fingerprint: _f, ...shown } = stored;
    return { ...shown, stale: !kept };
  }

  // ------------------------------------------------------------ for exams

  /**
   * Bank questions by id as publishing an exam needs them, in the order asked: typed body, team, default
   * score and where the reference check stands. `not_found` for a missing id, `question_invalid` for a row
   * that no longer parses. Pass a transaction as `db` to read inside it. No access check: the caller checks
   * the exam and compares teams.
   */
  async getForPublish(ids: readonly number[], db?: Db): Promise<PublishQuestion[]> {
    const repo = db ? new BankRepository(db) : this.repo;
    const rows = new Map((await repo.byIds(unique(ids))).map((r) => [r.id, r]));
    return ids.map((id) => {
      const r = rows.get(id);
      if (!r) throw fail('not_found', `no such question ${id}`);
      const body = this.parseStored(r);
      const v = verificationOf(r, body);
      return {
        id,
        teamId: r.team_id,
        kind: body.kind,
        type: r.type,
        body,
        defaultScore: r.default_score,
        verification: verificationState(r, body),
        problem: v && !v.ok ? v.problem : null,
      };
    });
  }

  /** Ids of the bank questions a draw rule picks from, ascending (folders include their sub-folders). */
  async poolFor(rule: PoolRule, db?: Db): Promise<number[]> {
    const repo = db ? new BankRepository(db) : this.repo;
    const folderIds = rule.folder_ids?.length ? await this.withSubFolders(rule.folder_ids, rule.team, repo) : undefined;
    return repo.pool({ team: rule.team, folderIds, tags: rule.tags, difficulty: rule.difficulty });
  }
}

/** A stored reference check, or null when there is none (or it is unreadable). */
function parseVerification(json: string | null): StoredVerification | null {
  if (!json) return null;
  try {
    const parsed = StoredVerification.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A question's reference check as shown, stale when what it judged has changed since. */
function verificationOf(r: { verification: string | null }, body: QuestionBody): BankVerification | null {
  const v = parseVerification(r.verification);
  if (!v || body.kind !== 'programming') return null;
  const { fingerprint: made, ...shown } = v;
  return { ...shown, stale: made !== fingerprint(body) };
}

/** Where a question's reference check stands. */
function verificationState(r: { verification: string | null }, body: QuestionBody): BankVerificationState {
  const v = verificationOf(r, body);
  if (!v) return 'none';
  if (v.stale) return 'stale';
  return v.ok ? 'ok' : 'failed';
}

/** Folders by id. */
const byId = (rows: BankFolderRow[]) => new Map(rows.map((f) => [f.id, f]));

/** Depth of a folder: 0 at the top. */
function depthOf(tree: Map<number, BankFolderRow>, id: number): number {
  let depth = 0;
  for (
    let at = tree.get(id)?.parent_id ?? null;
    at !== null && depth <= BANK_LIMITS.folderDepth;
    at = tree.get(at)?.parent_id ?? null
  ) {
    depth += 1;
  }
  return depth;
}

/** How many levels lie below a folder (0 for one without sub-folders). */
function heightOf(tree: Map<number, BankFolderRow>, id: number): number {
  let height = 0;
  for (const f of tree.values()) {
    if (f.parent_id === id) height = Math.max(height, 1 + heightOf(tree, f.id));
  }
  return height;
}

/** Folders in tree order (parents before children, siblings by name) with depth and counts. */
function treeOrder(rows: (BankFolderRow & { question_count: number })[]): BankFolderNode[] {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, typeof rows>();
  for (const r of rows) {
    // A folder whose parent the caller cannot see is shown at the top.
    const parent = r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const out: BankFolderNode[] = [];
  const visit = (r: (typeof rows)[number], depth: number): number => {
    const node: BankFolderNode = {
      id: r.id,
      team_id: r.team_id,
      parent_id: r.parent_id,
      name: r.name,
      depth,
      question_count: r.question_count,
      total_count: r.question_count,
      created_at: r.created_at,
    };
    out.push(node);
    for (const c of children.get(r.id) ?? []) node.total_count += visit(c, depth + 1);
    return node.total_count;
  };
  for (const r of children.get(null) ?? []) visit(r, 0);
  return out;
}
