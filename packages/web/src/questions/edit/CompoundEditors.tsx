import { InputNumber } from '../../shell/InputNumber.js';
import { useI18n } from '../../i18n/index.js';
import { AudioField } from './AudioField.js';
import { Field } from './FieldProblems.js';
import { ContentStem, StemField } from './StemField.js';
import { SubQuestionsEditor } from './SubQuestions.js';
import type { SubDraft, SubKeyDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import type { BodyEditorProps, EditorContext } from './types.js';

/** The sub-questions of a reading or listening body, with their keys. */
function BodySubs<B extends { content: { subs: SubDraft[] }; key: { subs: Record<string, SubKeyDraft> } }>(props: {
  body: B;
  onChange: (body: B) => void;
  problems: readonly Problem[];
  ctx: EditorContext;
  idPrefix: string;
}) {
  const { content, key } = props.body;
  return (
    <SubQuestionsEditor
      state={{ subs: content.subs, keys: key.subs }}
      onChange={(s) =>
        props.onChange({ ...props.body, content: { ...content, subs: s.subs }, key: { ...key, subs: s.keys } })
      }
      problems={props.problems}
      ctx={props.ctx}
      idPrefix={props.idPrefix}
    />
  );
}

/** Reading: instructions, the passage, and the sub-questions. */
export function ReadingEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'reading'>) {
  const { content } = value;
  return (
    <>
      <ContentStem body={value} onChange={onChange} problems={problems} ctx={ctx} />
      <StemField
        value={content.passage}
        onChange={(passage) => onChange({ ...value, content: { ...content, passage } })}
        problems={problems}
        ctx={ctx}
        field="content.passage"
        label="qedit.passage"
        testId="passage-editor"
      />
      <BodySubs body={value} onChange={onChange} problems={problems} ctx={ctx} idPrefix={idPrefix} />
    </>
  );
}

/** Listening: instructions, the audio and how often it may be played, and the sub-questions. */
export function ListeningEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'listening'>) {
  const { t } = useI18n();
  const { content, key } = value;
  return (
    <>
      <ContentStem body={value} onChange={onChange} problems={problems} ctx={ctx} />
      <AudioField
        audio={{ key: key.audio.key, duration_s: content.audio.duration_s }}
        onChange={(audio) =>
          onChange({
            content: { ...content, audio: { ...content.audio, duration_s: audio.duration_s } },
            key: { ...key, audio: { key: audio.key } },
          })
        }
        problems={problems}
        idPrefix={idPrefix}
      />
      <Field
        label={t('qedit.playLimit')}
        field="content.audio.play_limit"
        problems={problems}
        htmlFor={`${idPrefix}-plays`}
      >
        <InputNumber
          id={`${idPrefix}-plays`}
          value={content.audio.play_limit}
          min={1}
          max={10}
          precision={0}
          onChange={(play_limit) =>
            onChange({ ...value, content: { ...content, audio: { ...content.audio, play_limit } } })
          }
          data-testid="play-limit"
        />
      </Field>
      <BodySubs body={value} onChange={onChange} problems={problems} ctx={ctx} idPrefix={idPrefix} />
    </>
  );
}
