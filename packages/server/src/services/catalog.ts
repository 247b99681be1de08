import {
  ExamDefinition,
  ExamSettings,
  QUESTION_TYPE_DISPLAY_ORDER,
  type QuestionType,
  type Section,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ExamRepository, type ExamRow, type QuestionRow, type SectionRow } from '../repositories/exams.js';
import { ExamVersionRepository, type VersionRow } from '../repositories/examVersions.js';
import { readStoredQuestion, type ReadQuestion } from './storedQuestion.js';

/**
 * A question of a version read through the typed model: `body` (kind, content, key), or null with the
 * `problem` of a stored row that no longer parses (bodyOf turns that into question_invalid where it is used).
 */
export type CatalogQuestion = {
  id: number;
  type: QuestionType;
  order_num: number;
  score: number;
  section: Section;
  /** The version's section row it sits in. */
  section_id: number;
  /** The bank question it was copied from, when it came from the bank. */
  bank_question_id: number | null;
} & ReadQuestion;

/** The exam-level fields candidates read: the published version's, with live changes (or a preview's own). */
export type ExamHeadRow = Pick<
  ExamRow,
  'id' | 'name' | 'description' | 'mode' | 'time_minutes' | 'start_at' | 'end_at' | 'published_version_id' | 'seb'
>;

/** The exam as candidates see it, without questions: the exams row (or a preview version's definition). */
export interface ExamHead {
  exam: ExamHeadRow;
  settings: ExamSettings;
}

/** A section of a version. */
export interface VersionSection {
  id: number;
  kind: Section;
  order_num: number;
  /** How many of its questions a candidate draws; null: every one. */
  draw_count: number | null;
  /** Its questions (a draw section: its whole pool) in order. */
  question_ids: number[];
}

/** A frozen version: its definition, sections and questions. Never changes, so it is cached without expiry. */
export interface VersionBundle {
  id: number;
  exam_id: number;
  number: number;
  preview: boolean;
  /** Corrections of its frozen keys when it was read. */
  keyRevision: number;
  /** The definition it froze; null for a version whose stored definition no longer parses. */
  definition: ExamDefinition | null;
  sections: VersionSection[];
  /** Every question of the version (whole pools of draw sections included), by id. */
  byId: Map<number, CatalogQuestion>;
  /** True when some section draws, so each attempt stores the questions it got. */
  draws: boolean;
}

/** What an attempt runs on (or the exam before an attempt exists): the exam, its version and its questions. */
export interface ExamBundle {
  exam: ExamHeadRow;
  settings: ExamSettings;
  version: VersionBundle;
  /** Question counts per section (draw sections count what a candidate draws). */
  countNum: Record<Section, number>;
  /** Questions of the linetest and major sections in the order candidates see them. */
  ordered: CatalogQuestion[];
  /** Evaluation items in order. */
  evaluation: CatalogQuestion[];
  /** The attempt's questions by id. */
  byId: Map<number, CatalogQuestion>;
}

/** The question part of a bundle, shared by every attempt with the same version and questions. */
type QuestionView = Pick<ExamBundle, 'countNum' | 'ordered' | 'evaluation' | 'byId'>;

/** Position of a type in the display order. */
const typeRank = (t: number) => QUESTION_TYPE_DISPLAY_ORDER.indexOf(t as QuestionType);

/** Versions kept in memory per process (least recently used go first). */
const MAX_VERSIONS = 200;
/** Attempt views (a version with one draw) kept in memory. */
const MAX_VIEWS = 20_000;

/** Moves a key to the young end of a Map used as an LRU, evicting the oldest past `max`. */
function touch<K, V>(map: Map<K, V>, key: K, value: V, max: number, evict?: (k: K, v: V) => void): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const [oldKey, oldValue] = map.entries().next().value as [K, V];
    map.delete(oldKey);
    evict?.(oldKey, oldValue);
  }
}

/** A question row as the candidate side uses it. */
function toQuestion(r: QuestionRow, section: SectionRow | undefined): CatalogQuestion {
  return {
    id: r.id,
    type: r.type as QuestionType,
    order_num: r.order_num,
    score: r.score,
    section: (section?.kind ?? 'linetest') as Section,
    section_id: r.section_id,
    bank_question_id: r.bank_question_id ?? null,
    ...readStoredQuestion(r, (section?.kind ?? 'linetest') as Section),
  };
}

/** The ids of an attempt's questions as stored (a JSON array), or null for every question of the version. */
export function parseQuestionIds(json: string | null): number[] | null {
  if (json === null) return null;
  const ids = JSON.parse(json) as unknown;
  return Array.isArray(ids) ? ids.filter((v): v is number => Number.isInteger(v)) : [];
}

/**
 * Exams as candidates read them. Versions never change once frozen, so they are cached by id without
 * expiry (bounded, least recently used first): an attempt's questions are right by construction. The
 * exams row holds what may change while an exam runs (closing time, length) and what a new publish sets;
 * it is kept for a few seconds per process, and a change made here is seen at once.
 */
export class ExamCatalog {
  private readonly heads = new Map<number, { at: number; head: Promise<ExamHead | null> }>();
  private readonly versions = new Map<number, Promise<VersionBundle | null>>();
  /** Which version each question of a cached version belongs to (the answer save's lookup). */
  private readonly questionVersions = new Map<number, number>();
  private readonly views = new Map<string, QuestionView>();
  private readonly idSets = new Map<string, ReadonlySet<number>>();
  /**
   * When each cached version holding a question that no longer parses was read: such a version is read
   * again after the time-to-live, so a repaired row is seen (a sound version is never read twice).
   */
  private readonly brokenAt = new Map<number, number>();
  private readonly repo: ExamRepository;
  private readonly versionRepo: ExamVersionRepository;

  constructor(
    db: Db,
    private readonly clock: () => number,
    private readonly ttlMs = 10_000,
  ) {
    this.repo = new ExamRepository(db);
    this.versionRepo = new ExamVersionRepository(db);
  }

  /** The exam's row as candidates read it, or null when there is none. */
  head(examId: number): Promise<ExamHead | null> {
    const now = this.clock();
    const hit = this.heads.get(examId);
    if (hit && now - hit.at < this.ttlMs) return hit.head;
    const head = this.repo
      .byId(examId)
      .then((exam) => (exam ? { exam, settings: ExamSettings.parse(JSON.parse(exam.settings)) } : null));
    this.heads.set(examId, { at: now, head });
    head.catch(() => this.heads.delete(examId));
    return head;
  }

  /** Forgets the exam's row after a change made in this process (other processes reread it within the TTL). */
  forget(examId: number): void {
    this.heads.delete(examId);
  }

  /**
   * Drops every cached version. Versions are never changed in place, so nothing in the server needs this;
   * a repair of frozen rows by hand (or a test that edits one) does.
   */
  forgetVersions(): void {
    this.versions.clear();
    this.questionVersions.clear();
    this.views.clear();
  }

  /**
   * Drops one cached version after a correction of its frozen rows (a key fixed by grading): this process reads
   * it again at once; other processes see the correction count move before they score (keysCurrent).
   */
  forgetVersion(versionId: number): void {
    if (this.versions.delete(versionId)) this.evicted(versionId);
  }

  /**
   * Whether a cached version still holds the stored keys: one read of its correction count. A version whose key
   * was corrected (by this or another API process) is dropped, so the caller reads it again before it scores.
   */
  async keysCurrent(version: VersionBundle): Promise<boolean> {
    const stored = await this.versionRepo.keyRevision(version.id);
    if (stored === null || stored === version.keyRevision) return true;
    if (this.versions.has(version.id)) this.forgetVersion(version.id);
    return false;
  }

  /** A version, or null when there is none. */
  version(versionId: number): Promise<VersionBundle | null> {
    const hit = this.versions.get(versionId);
    const broken = this.brokenAt.get(versionId);
    if (hit && broken !== undefined && this.clock() - broken >= this.ttlMs) {
      this.versions.delete(versionId);
      this.evicted(versionId);
    } else if (hit) {
      touch(this.versions, versionId, hit, MAX_VERSIONS, (id) => this.evicted(id));
      return hit;
    }
    const loaded = this.loadVersion(versionId);
    const at = this.clock();
    touch(this.versions, versionId, loaded, MAX_VERSIONS, (id) => this.evicted(id));
    loaded.then(
      (v) => {
        if (!v || this.versions.get(versionId) !== loaded) return;
        for (const id of v.byId.keys()) this.questionVersions.set(id, versionId);
        if ([...v.byId.values()].some((q) => q.body === null)) this.brokenAt.set(versionId, at);
      },
      () => this.versions.delete(versionId),
    );
    return loaded;
  }

  /** The version a question is frozen in, or null; answered from memory once its version was loaded. */
  async versionOfQuestion(questionId: number): Promise<number | null> {
    const known = this.questionVersions.get(questionId);
    if (known !== undefined) return known;
    return this.versionRepo.versionOfQuestion(questionId);
  }

  /** The ids of an attempt's questions as a set (cached: the answer save checks membership on every call). */
  questionSet(json: string): ReadonlySet<number> {
    let set = this.idSets.get(json);
    if (!set) set = new Set(parseQuestionIds(json));
    touch(this.idSets, json, set, MAX_VIEWS);
    return set;
  }

  private evicted(versionId: number): void {
    this.brokenAt.delete(versionId);
    for (const [q, v] of this.questionVersions) if (v === versionId) this.questionVersions.delete(q);
    for (const key of this.views.keys()) if (key.startsWith(`${versionId}|`)) this.views.delete(key);
  }

  private async loadVersion(versionId: number): Promise<VersionBundle | null> {
    const row = await this.versionRepo.byId(versionId);
    if (!row) return null;
    const [sections, rows] = await Promise.all([
      this.versionRepo.sectionsOf(versionId),
      this.versionRepo.questionsOf(versionId),
    ]);
    return buildVersion(row, sections, rows);
  }

  /** The head a preview version shows: its own frozen definition, not the exams row. */
  previewHead(version: VersionBundle, examId: number): ExamHead | null {
    const d = version.definition;
    if (!d) return null;
    return {
      exam: {
        id: examId,
        name: d.name,
        description: d.description,
        mode: d.mode,
        time_minutes: d.time_minutes,
        start_at: d.start_at,
        end_at: d.end_at,
        published_version_id: null,
        seb: d.seb.required ? JSON.stringify(d.seb) : null,
      },
      settings: d.settings,
    };
  }

  /**
   * The bundle of a version for an attempt's questions (`questionIds` as stored: their order is the
   * attempt's; null: every question of the version, sections drawing counted by what a candidate gets).
   */
  bundle(head: ExamHead, version: VersionBundle, questionIds: string | null): ExamBundle {
    const key = `${version.id}|${questionIds ?? ''}`;
    let view = this.views.get(key);
    if (!view) view = questionView(version, parseQuestionIds(questionIds));
    touch(this.views, key, view, MAX_VIEWS);
    return { exam: head.exam, settings: head.settings, version, ...view };
  }
}

/** Id of the stand-in version of an exam not published yet (no real version has id 0). */
export const EMPTY_VERSION_ID = 0;

/** The stand-in version of an exam not published yet: no sections, no questions. */
export function emptyVersion(examId: number): VersionBundle {
  return {
    id: EMPTY_VERSION_ID,
    exam_id: examId,
    number: 0,
    keyRevision: 0,
    preview: false,
    definition: null,
    sections: [],
    byId: new Map(),
    draws: false,
  };
}

/** Builds a version from its rows. */
export function buildVersion(row: VersionRow, sections: SectionRow[], rows: QuestionRow[]): VersionBundle {
  const sectionOf = new Map(sections.map((s) => [s.id, s]));
  const byId = new Map(rows.map((r) => [r.id, toQuestion(r, sectionOf.get(r.section_id))]));
  const parsed = ExamDefinition.safeParse(JSON.parse(row.definition));
  const versionSections = sections.map((s): VersionSection => ({
    id: s.id,
    kind: s.kind as Section,
    order_num: s.order_num,
    draw_count: s.draw_count,
    question_ids: rows.filter((r) => r.section_id === s.id).map((r) => r.id),
  }));
  return {
    id: row.id,
    exam_id: row.exam_id,
    number: row.number,
    preview: row.preview === 1,
    keyRevision: row.key_revision,
    definition: parsed.success ? parsed.data : null,
    sections: versionSections,
    byId,
    draws: versionSections.some((s) => s.draw_count !== null),
  };
}

/** The questions of a version an attempt gets, in the order candidates see them. */
function questionView(version: VersionBundle, ids: number[] | null): QuestionView {
  const sectionRank = new Map(version.sections.map((s) => [s.id, s.order_num]));
  const position = ids ? new Map(ids.map((id, i) => [id, i])) : null;
  const questions = ids
    ? ids.map((id) => version.byId.get(id)).filter((q): q is CatalogQuestion => q !== undefined)
    : [...version.byId.values()];
  // Sections come in the author's order, so numbers run through one section before the next; within a section
  // types follow QUESTION_TYPE_DISPLAY_ORDER, and within a type an attempt that stores its questions
  // sees them in its own order (a shuffle), otherwise in the author's order.
  const bySection = (a: CatalogQuestion, b: CatalogQuestion) =>
    (sectionRank.get(a.section_id) ?? 0) - (sectionRank.get(b.section_id) ?? 0);
  const within = (a: CatalogQuestion, b: CatalogQuestion) =>
    position ? position.get(a.id)! - position.get(b.id)! : a.order_num - b.order_num || a.id - b.id;
  const ordered = questions
    .filter((q) => q.section !== 'evaluation')
    .sort((a, b) => bySection(a, b) || typeRank(a.type) - typeRank(b.type) || within(a, b));
  const evaluation = questions
    .filter((q) => q.section === 'evaluation')
    .sort((a, b) => bySection(a, b) || within(a, b));
  const countNum = { linetest: 0, major: 0, evaluation: 0 };
  if (ids) for (const q of questions) countNum[q.section] += 1;
  else for (const s of version.sections) countNum[s.kind] += s.draw_count ?? s.question_ids.length;
  return { countNum, ordered, evaluation, byId: new Map(questions.map((q) => [q.id, q])) };
}
