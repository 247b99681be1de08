import { useI18n, type MessageKey } from '../../i18n/index.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';
import { RichText } from './RichText.js';
import type { EditorContext } from './types.js';

/** A rich-text field of the content with pictures (the stem unless said: the passage too). */
export function StemField({
  value,
  onChange,
  problems,
  ctx,
  field = 'content.stem',
  label = 'qedit.stem',
  testId = 'stem-editor',
}: {
  value: string;
  onChange: (html: string) => void;
  problems: readonly Problem[];
  ctx: EditorContext;
  field?: string;
  label?: MessageKey;
  testId?: string;
}) {
  const { t } = useI18n();
  return (
    <Field label={t(label)} field={field} problems={problems}>
      <RichText value={value} onChange={onChange} label={t(label)} testId={testId} ctx={ctx} />
    </Field>
  );
}

/** The stem of a body being edited: the body comes back with its content's stem changed and the rest as it was. */
export function ContentStem<B extends { content: { stem: string } }>(props: {
  body: B;
  onChange: (body: B) => void;
  problems: readonly Problem[];
  ctx: EditorContext;
}) {
  const { body, onChange } = props;
  return (
    <StemField
      value={body.content.stem}
      onChange={(stem) => onChange({ ...body, content: { ...body.content, stem } })}
      problems={props.problems}
      ctx={props.ctx}
    />
  );
}
