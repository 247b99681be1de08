import { QUESTION_REGISTRY } from '@examhall/contract';
import { useI18n } from '../../i18n/index.js';
import { BlanksInput } from '../../exam/questions/BlanksInput.js';
import { MultiChoice, SingleChoice } from '../../exam/questions/ChoiceInput.js';
import { subKindOf, type SubType } from '../subKinds.js';
import type { RendererProps, SubInputProps } from './types.js';

/** Choice or blanks input for a question or a sub-question, by the answer its kind takes. */
export function SubInput(props: SubInputProps) {
  const { subject, value, onChange } = props;
  const name = `q-${subject.id}`;
  const answer = QUESTION_REGISTRY[subKindOf(subject.type as SubType)].answer;
  if (answer === 'choice') {
    return (
      <SingleChoice
        name={name}
        label={props.label}
        options={subject.options ?? []}
        value={value?.kind === 'choice' ? value.option : undefined}
        onChange={(option) => onChange({ kind: 'choice', option })}
      />
    );
  }
  if (answer === 'multi') {
    return (
      <MultiChoice
        name={name}
        label={props.label}
        options={subject.options ?? []}
        value={value?.kind === 'multi' ? value.options : []}
        onChange={(options) => onChange({ kind: 'multi', options })}
      />
    );
  }
  return (
    <BlanksInput
      id={name}
      count={subject.blanks ?? 1}
      value={value?.kind === 'blanks' ? value.blanks : []}
      onChange={(blanks) => onChange({ kind: 'blanks', blanks })}
      onPasteBlocked={props.pasteBlocked}
    />
  );
}

/** The renderer of the choice and fill-in-blank kinds: the input under the stem. */
export function PickRenderer({ subject, value, onChange, ctx }: RendererProps) {
  const { t } = useI18n();
  return (
    <SubInput
      subject={subject}
      value={value?.kind === 'choice' || value?.kind === 'multi' || value?.kind === 'blanks' ? value : undefined}
      onChange={onChange}
      pasteBlocked={ctx.allowPaste ? null : ctx.warnPaste}
      label={t('exam.options')}
    />
  );
}
