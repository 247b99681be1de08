import {
  kindExamples,
  KIND_SPECS,
  KINDS,
  kindIndex,
  parseQuestion,
  QUESTION_KINDS,
  QUESTION_REGISTRY,
  type QuestionBody,
  type QuestionType,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { DRAFT_FOLDERS, DRAFT_KINDS, emptyBody, type DraftRules } from '../drafts.js';
import { EDIT_FOLDERS, EDIT_KINDS, editKinds, QUESTION_EDITORS } from '../edit/editors.js';
import { validateDraft } from '../problems.js';
import { RENDER_FOLDERS, RENDER_KINDS, renderKinds, WEB_QUESTION_REGISTRY } from '../registry.js';
import { draftKinds } from './drafting.js';
import type { KindEdit } from './editEntry.js';
import { kindLabelIn } from '../labels.js';
import { folderProblems } from './folders.js';

/** The console's side of each folder as a whole: its editor and its draft rules. */
const EDIT_MODULES = import.meta.glob<Record<string, unknown>>('./*/edit.ts', { eager: true });

/** A component, or one loaded on first use (React.lazy). */
const isComponent = (c: unknown) =>
  typeof c === 'function' || (c as { $$typeof?: symbol }).$$typeof === Symbol.for('react.lazy');

describe("the kinds' folders", () => {
  it('hold a renderer, draft rules and an editor for every contract kind, and no other folder', () => {
    expect(folderProblems(KINDS, RENDER_FOLDERS, 'render')).toEqual([]);
    expect(folderProblems(KINDS, DRAFT_FOLDERS, 'draft')).toEqual([]);
    expect(folderProblems(KINDS, EDIT_FOLDERS, 'edit')).toEqual([]);
    for (const byKind of [RENDER_KINDS.byKind, DRAFT_KINDS.byKind, EDIT_KINDS.byKind])
      expect(Object.keys(byKind).sort()).toEqual([...QUESTION_KINDS].sort());
  });

  it.each(QUESTION_KINDS)('%s: has a renderer, an editor and an empty draft in its folder', (kind) => {
    expect(isComponent(WEB_QUESTION_REGISTRY[kind].Renderer)).toBe(true);
    expect(typeof QUESTION_EDITORS[kind]).toBe('function');
    // The console's side of the folder: its editor and its draft rules (the same as the drafts use).
    const edit = EDIT_MODULES[`./${kind}/edit.ts`];
    expect(edit?.['edit']).toBe(EDIT_KINDS.of(kind));
    expect(edit?.['draft']).toBe(DRAFT_KINDS.of(kind));
    expect(emptyBody(kind)).toHaveProperty('content.stem', '');
    // Sub-question rules exactly for the kinds the contract lets be a sub-question.
    expect(DRAFT_KINDS.of(kind).sub !== undefined).toBe(QUESTION_REGISTRY[kind].sub);
  });

  it.each(QUESTION_KINDS)("%s: the empty draft has the contract example's fields, and the example parses", (kind) => {
    const empty = emptyBody(kind);
    for (const example of kindExamples(kind)) {
      expect(parseQuestion(kind, example.content, example.key)).toMatchObject({ ok: true });
      // The example written over the empty draft is a question, with every field the draft starts with.
      const parsed = parseQuestion(kind, { ...empty.content, ...example.content }, { ...empty.key, ...example.key });
      if (!parsed.ok) throw new Error(parsed.problems.join('; '));
      expect(Object.keys(parsed.body.content)).toEqual(expect.arrayContaining(Object.keys(empty.content)));
      expect(Object.keys(parsed.body.key)).toEqual(expect.arrayContaining(Object.keys(empty.key)));
      // The example as the editor holds it raises no problem in the web's own check.
      const body = parsed.body satisfies QuestionBody;
      const meta = {
        explanation: { text: '', options: {} },
        difficulty: 3,
        tags: [],
        knowledge_points: [],
        default_score: 5,
      };
      expect(validateDraft({ ...body, ...meta })).toEqual([]);
    }
  });
});

describe('a 12th kind', () => {
  const single = QUESTION_REGISTRY.single;
  const dummy = {
    ...single,
    kind: 'dummy',
    type: 99 as QuestionType,
    label: { 'zh-CN': '虚拟题', 'en-US': 'Dummy' },
    sub: false,
  };
  const index = kindIndex([...KIND_SPECS, dummy]);
  const Renderer = () => null;
  const Editor = () => null;
  const draft: DraftRules<'dummy', { content: { stem: string; note: string }; key: { note: string } }> = {
    kind: 'dummy',
    empty: () => ({ content: { stem: '', note: '' }, key: { note: 'new' } }),
    give: (b) => ({ grading: { rubric: b.key.note } }),
    take: (b, parts) => ({ ...b, key: { note: parts.grading?.rubric ?? b.key.note } }),
  };
  const folder = <E>(file: string, entry: E) => ({ [`./kinds/dummy/${file}.ts`]: entry });
  const render = renderKinds({ ...RENDER_FOLDERS, ...folder('render', { kind: 'dummy', Renderer }) });
  // The product's editors are typed by the product's kinds: the dummy's entry is cast to one.
  const edit = editKinds({ ...EDIT_FOLDERS, ...folder('edit', { kind: 'dummy', Editor } as unknown as KindEdit) });
  const drafts = draftKinds(index, { ...DRAFT_FOLDERS, ...folder('draft', draft) });

  it('is found by every web lookup once its folder is there, with no other edit', () => {
    expect(folderProblems(index, { ...RENDER_FOLDERS, ...folder('render', render.of('dummy')) }, 'render')).toEqual([]);
    expect(folderProblems(index, { ...EDIT_FOLDERS, ...folder('edit', edit.of('dummy')) }, 'edit')).toEqual([]);
    expect(folderProblems(index, { ...DRAFT_FOLDERS, ...folder('draft', draft) }, 'draft')).toEqual([]);
    expect(render.of('dummy').Renderer).toBe(Renderer);
    expect(kindLabelIn(index, 'dummy', 'en-US')).toBe('Dummy');
    expect(kindLabelIn(index, 'dummy', 'zh-CN')).toBe('虚拟题');
    expect(edit.of('dummy').Editor).toBe(Editor);
    expect(drafts.emptyBody('dummy', 'zh-CN')).toEqual({ content: { stem: '', note: '' }, key: { note: 'new' } });
    // Changing the kind goes through the new kind's rules both ways.
    const qa = { kind: 'qa', content: { stem: '<p>q</p>' }, key: { rubric: 'r' } };
    expect(drafts.convertBody(qa, 'dummy', 'zh-CN')).toEqual({
      kind: 'dummy',
      content: { stem: '<p>q</p>', note: '' },
      key: { note: 'r' },
    });
    expect(drafts.convertBody(drafts.convertBody(qa, 'dummy', 'zh-CN'), 'qa', 'zh-CN')).toEqual(qa);
    // The product's kinds are still found beside it.
    expect(render.of('single').Renderer).toBe(WEB_QUESTION_REGISTRY.single.Renderer);
    expect(edit.of('single').Editor).toBe(QUESTION_EDITORS.single);
    expect(drafts.emptyBody('single', 'zh-CN')).toEqual(emptyBody('single'));
  });

  it('without its folder, or with a folder no contract kind names, fails the check', () => {
    expect(folderProblems(index, RENDER_FOLDERS, 'render')).toEqual(['dummy: no render.ts in kinds/dummy/']);
    expect(folderProblems(index, DRAFT_FOLDERS, 'draft')).toEqual(['dummy: no draft.ts in kinds/dummy/']);
    const extra = { ...RENDER_FOLDERS, ...folder('render', { kind: 'dummy', Renderer }) };
    expect(folderProblems(KINDS, extra, 'render')).toEqual([
      './kinds/dummy/render.ts: no contract kind is named dummy',
    ]);
    const misnamed = { ...EDIT_FOLDERS, ...folder('edit', { kind: 'single', Editor }) };
    expect(folderProblems(index, misnamed, 'edit')).toEqual([
      './kinds/dummy/edit.ts: exports no edit of kind dummy',
      'dummy: no edit.ts in kinds/dummy/',
    ]);
  });
});
