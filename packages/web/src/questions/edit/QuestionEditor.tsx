import { QUESTION_KINDS, type BankVerification, type QuestionKind } from '@examhall/contract';
import { App, Divider, Select } from 'antd';
import { Form } from '../../shell/Form.js';
import { useCallback, useId, useMemo, useState, type ComponentType } from 'react';
import { useI18n } from '../../i18n/index.js';
import { bodyOf, convertDraft, metaOf, type BodyDrafts, type QuestionDraft } from '../drafts.js';
import { changedPaths, shownProblems, validateDraft, type DraftPath } from '../problems.js';
import { kindLabel } from '../registry.js';
import { sendPicked, UPLOAD_LIMITS, uploadImage } from '../uploads.js';
import { QUESTION_EDITORS } from './editors.js';
import { ExplanationFields } from './ExplanationFields.js';
import { MetaFields } from './MetaFields.js';
import { ProblemSummary } from './ProblemSummary.js';
import { ReadOnly } from './scope.js';
import type { BodyEditorProps, EditorContext } from './types.js';

/** Props of QuestionEditor. */
export interface QuestionEditorProps {
  /** The question being edited: `{kind, content, key, difficulty, tags, knowledge_points, default_score}`. */
  value: QuestionDraft;
  /** Every change, as a whole new draft. */
  onChange: (next: QuestionDraft) => void;
  /** Kinds the author may switch to (e.g. only 'evaluation' in an evaluation section); all when absent. */
  kinds?: readonly QuestionKind[];
  /** The stored question's id; absent for a new one (its reference solution cannot be verified yet). */
  questionId?: number;
  /** The stored question's last reference-solution check (from the bank's question view). */
  verification?: BankVerification | null;
  /** True while the draft differs from the stored question. */
  unsaved?: boolean;
  /** A new reference-solution check was made (the page may refetch the question). */
  onVerified?: (verification: BankVerification) => void;
  /**
   * Show every problem at once (e.g. after a save was tried). Otherwise a new question shows the problems of
   * the fields the author has changed, and a stored one shows all from the start.
   */
  showAllProblems?: boolean;
  /** Tags already used in the bank, offered while typing. */
  tagOptions?: readonly string[];
  /** Shown, not edited (a viewer without bank.manage): every field is disabled. */
  readOnly?: boolean;
}

/**
 * Edits one bank question of any kind: the kind, its kind's own editor (from the registry), and the bank's
 * fields. It checks the draft with the same contract schema as the server on every change and shows each
 * problem at the field it names.
 */
export function QuestionEditor(props: QuestionEditorProps) {
  const { value, onChange } = props;
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const idPrefix = `q${useId().replace(/:/g, '')}`;
  const [touched, setTouched] = useState<DraftPath[]>([]);
  const [revealed, setRevealed] = useState(false);
  const problems = useMemo(() => validateDraft(value), [value]);
  const all = revealed || props.showAllProblems === true || props.questionId !== undefined;
  const shown = shownProblems(problems, touched, all);

  const change = (next: QuestionDraft) => {
    const paths = changedPaths(value, next);
    setTouched((before) => {
      const seen = new Set(before.map((p) => p.join('.')));
      return [...before, ...paths.filter((p) => !seen.has(p.join('.')))];
    });
    onChange(next);
  };

  const storeImage = useCallback(
    async (file: File): Promise<string> => {
      const sent = await sendPicked(file, UPLOAD_LIMITS.image, uploadImage, () => {});
      if (sent.ok) return sent.data.url;
      const text = sent.tooLarge
        ? t('qedit.image.tooLarge', { mb: UPLOAD_LIMITS.image / 1024 / 1024 })
        : t('qedit.image.failed', { msg: sent.reason });
      void message.error(text);
      throw new Error(text);
    },
    [message, t],
  );

  const ctx: EditorContext = {
    questionId: props.questionId,
    verification: props.verification,
    unsaved: props.unsaved ?? false,
    uploadImage: storeImage,
    onVerified: props.onVerified,
    editorOf: (kind) => QUESTION_EDITORS[kind],
  };
  const kinds = props.kinds ?? QUESTION_KINDS;
  const subIds = 'subs' in value.content ? value.content.subs.map((s) => String(s.id)) : [];

  return (
    <ReadOnly.Provider value={props.readOnly === true}>
      <Form
        layout="vertical"
        component="div"
        disabled={props.readOnly === true}
        className="question-editor"
        data-testid="question-editor"
        data-kind={value.kind}
      >
        {/* Read-only: antd's controls by the form's `disabled`, and every native control (buttons whose own
            `disabled` would win over the form's) by the fieldset. */}
        <fieldset disabled={props.readOnly === true} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          {kinds.length > 1 && (
            <Form.Item label={t('qedit.kind')} htmlFor={`${idPrefix}-kind`}>
              <Select
                id={`${idPrefix}-kind`}
                value={value.kind}
                onChange={(kind: QuestionKind) => {
                  setTouched([]);
                  onChange(convertDraft(value, kind, lang));
                }}
                options={kinds.map((k) => ({ value: k, label: kindLabel(k, lang) }))}
                style={{ minWidth: 200 }}
                data-testid="kind-select"
              />
            </Form.Item>
          )}
          <BodyEditor
            key={value.kind}
            draft={value}
            onBody={(body) => change({ ...value, content: body.content, key: body.key } as QuestionDraft)}
            problems={shown}
            ctx={ctx}
            idPrefix={idPrefix}
          />
          <ExplanationFields
            content={value.content}
            value={value.explanation}
            onChange={(explanation) => change({ ...value, explanation })}
            ctx={ctx}
          />
          <Divider titlePlacement="start">{t('qedit.meta')}</Divider>
          <MetaFields
            meta={metaOf(value)}
            onChange={(meta) => change({ ...value, ...meta })}
            problems={shown}
            tagOptions={props.tagOptions}
            idPrefix={idPrefix}
          />
          <ProblemSummary
            shown={shown}
            total={problems.length}
            subIndex={(id) => subIds.indexOf(id)}
            onShowAll={() => setRevealed(true)}
          />
        </fieldset>
      </Form>
    </ReadOnly.Provider>
  );
}

/** The draft's kind's editor from the registry. */
function BodyEditor({
  draft,
  onBody,
  ...rest
}: {
  draft: QuestionDraft;
  onBody: (body: BodyDrafts[QuestionKind]) => void;
} & Omit<BodyEditorProps<QuestionKind>, 'value' | 'onChange'>) {
  // The registry gives each kind the editor of that kind's body, and the draft is of that kind (one cast, here).
  const Editor = QUESTION_EDITORS[draft.kind] as unknown as ComponentType<BodyEditorProps<QuestionKind>>;
  const body = bodyOf(draft);
  return (
    <Editor value={{ content: body.content, key: body.key } as BodyDrafts[QuestionKind]} onChange={onBody} {...rest} />
  );
}
