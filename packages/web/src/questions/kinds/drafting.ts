/**
 * The drafts' lookups by kind (a new body, sub-questions as bodies and back, changing the kind), built from the
 * kinds' draft rules (kinds/<kind>/draft.ts). drafts.ts gives the product's, typed by kind; a test builds them over
 * its own kinds. Framework-free.
 */
import type { KindIndex } from '@examhall/contract';
import type { AnyBodyDraft, AnyKindDraft, SharedParts, SubDraft, SubKeyDraft } from '../draftTypes.js';
import { kindFolders, type FolderFiles, type KindFolders } from './folders.js';
import type { Language } from '../../i18n/format.js';
import { DEFAULT_SUB_SCORE } from './parts.js';

/** A body with its kind, of any kind. */
export type AnyKindBody = { kind: string } & AnyBodyDraft;

/** The drafts' lookups over a set of kinds. */
export interface DraftKinds extends KindFolders<AnyKindDraft> {
  /** A new, empty body of a kind, its texts (true/false's options, say) in `lang`. */
  emptyBody(kind: string, lang: Language): AnyBodyDraft;
  /** A new sub-question of a kind, with its key. */
  emptySub(id: number, kind: string, lang: Language): { sub: SubDraft; key: SubKeyDraft };
  /** A sub-question as a body of its kind. */
  subAsBody(sub: SubDraft, key: SubKeyDraft | undefined): AnyKindBody;
  /** A sub-question and its key back from a body of its kind. */
  subFromBody(id: number, score: number | null, body: AnyKindBody): { sub: SubDraft; key: SubKeyDraft };
  /** A body of another kind that keeps what the two kinds share (see drafts.ts convertBody). */
  convertBody(from: AnyKindBody, to: string, lang: Language): AnyKindBody;
}

/** Builds the drafts' lookups from the kinds' draft rules (by path) and the contract's kinds (types, sub-questions). */
export function draftKinds(index: Pick<KindIndex, 'kinds' | 'byKind'>, files: FolderFiles<AnyKindDraft>): DraftKinds {
  const folders = kindFolders(files);
  const subRules = (kind: string) => {
    const sub = folders.of(kind).sub;
    if (!sub) throw new Error(`${kind} may not be a sub-question`);
    return sub;
  };
  const subKinds = index.kinds.filter((k) => index.byKind.get(k)?.sub);
  /** The kind of a sub-question's type id (the first sub kind for an unknown one, as an editor shows it). */
  const subKindOf = (type: number) => subKinds.find((k) => index.byKind.get(k)?.type === type) ?? subKinds[0]!;
  const kit = (lang: Language) => ({ lang, emptySub: (id: number, kind: string) => lookups.emptySub(id, kind, lang) });
  const lookups: DraftKinds = {
    ...folders,
    emptyBody: (kind, lang) => folders.of(kind).empty(kit(lang)),
    emptySub: (id, kind, lang) =>
      lookups.subFromBody(id, DEFAULT_SUB_SCORE, { kind, ...lookups.emptyBody(kind, lang) }),
    subAsBody(sub, key) {
      const kind = subKindOf(sub.type);
      return { kind, ...subRules(kind).asBody(sub, key ?? {}) };
    },
    subFromBody(id, score, body) {
      const type = index.byKind.get(body.kind)!.type as SubDraft['type'];
      return { sub: { id, type, score, ...subRules(body.kind).fields(body) }, key: body.key as SubKeyDraft };
    },
    convertBody(from, to, lang) {
      if (from.kind === to) return structuredClone(from);
      const parts: SharedParts = structuredClone(folders.of(from.kind).give(from));
      // Options nobody has written yet are not kept: the new kind's own defaults (an evaluation item's agreement
      // scale) are worth more than empty rows.
      if (parts.options && !parts.options.some((o) => o.content.trim() !== '')) delete parts.options;
      const rules = folders.of(to);
      const next = rules.take(rules.empty(kit(lang)), parts);
      return { kind: to, ...next, content: { ...next.content, stem: from.content.stem } };
    },
  };
  return lookups;
}
