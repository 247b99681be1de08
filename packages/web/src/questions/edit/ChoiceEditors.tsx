import { DIMENSIONS } from '@examhall/contract';
import { AutoComplete, Input } from 'antd';
import { useI18n } from '../../i18n/index.js';
import type { ChoiceContentDraft } from '../drafts.js';
import type { OptionKeyFields } from '../options.js';
import { Field } from './FieldProblems.js';
import { OptionsEditor, type OptionMode } from './OptionsEditor.js';
import { ContentStem } from './StemField.js';
import type { BodyEditorProps, EditorContext } from './types.js';
import type { Problem } from '../problems.js';

/** Stem and options of any choice kind. */
function ChoiceBody<C extends ChoiceContentDraft, K extends OptionKeyFields>(props: {
  value: { content: C; key: K };
  onChange: (next: { content: C; key: K }) => void;
  problems: readonly Problem[];
  ctx: EditorContext;
  idPrefix: string;
  mode: OptionMode;
  fixed?: boolean;
}) {
  const { value, onChange } = props;
  return (
    <>
      <ContentStem body={value} onChange={onChange} problems={props.problems} ctx={props.ctx} />
      <OptionsEditor
        state={{ options: value.content.options, key: value.key }}
        onChange={(s) => onChange({ content: { ...value.content, options: s.options }, key: s.key })}
        mode={props.mode}
        fixed={props.fixed}
        problems={props.problems}
        ctx={props.ctx}
        idPrefix={props.idPrefix}
      />
    </>
  );
}

/** Single choice: one right option. */
export function SingleEditor(props: BodyEditorProps<'single'>) {
  return <ChoiceBody {...props} mode="one" />;
}

/** Multiple choice: two or more right options. */
export function MultipleEditor(props: BodyEditorProps<'multiple'>) {
  return <ChoiceBody {...props} mode="many" />;
}

/** Indefinite choice: one or more right options. */
export function IndefiniteEditor(props: BodyEditorProps<'indefinite'>) {
  return <ChoiceBody {...props} mode="many" />;
}

/** True/false: the statement, its two options (texts editable) and which is right. */
export function TrueFalseEditor(props: BodyEditorProps<'true_false'>) {
  return <ChoiceBody {...props} mode="one" fixed />;
}

/** Gradient choice: points for every option. */
export function GradientEditor(props: BodyEditorProps<'gradient'>) {
  return <ChoiceBody {...props} mode="points" />;
}

/** Evaluation item: the statement, options with points, and the dimension they add to. */
export function EvaluationEditor(props: BodyEditorProps<'evaluation'>) {
  const { t, lang } = useI18n();
  const { value, onChange } = props;
  const id = `${props.idPrefix}-dimension`;
  return (
    <>
      <ChoiceBody {...props} mode="points" />
      <Field
        label={t('qedit.dimension')}
        field="content.dimension"
        problems={props.problems}
        extra={t('qedit.dimensionHint')}
        htmlFor={id}
      >
        {/* Well-known dimensions are offered so results show their names in either language; any text still goes. */}
        <AutoComplete
          value={value.content.dimension}
          options={DIMENSIONS.map((d) => ({ value: d.id, label: `${lang === 'zh-CN' ? d.zh : d.en} (${d.id})` }))}
          filterOption={(input, option) =>
            !!option && `${option.value} ${option.label}`.toLowerCase().includes(input.trim().toLowerCase())
          }
          onChange={(dimension: string) => onChange({ ...value, content: { ...value.content, dimension } })}
        >
          <Input id={id} maxLength={64} data-testid="dimension-input" />
        </AutoComplete>
      </Field>
    </>
  );
}
