import { Input } from 'antd';
import { useI18n } from '../../i18n/index.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';

/** The grader's rubric or reference answer (Q&A and programming Q&A). */
export function RubricField({
  value,
  onChange,
  problems,
  idPrefix,
}: {
  value: string | undefined;
  onChange: (rubric: string) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  const id = `${idPrefix}-rubric`;
  return (
    <Field label={t('qedit.rubric')} field="key.rubric" problems={problems} extra={t('qedit.rubricHint')} htmlFor={id}>
      <Input.TextArea
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
        autoSize={{ minRows: 3, maxRows: 16 }}
        data-testid="rubric-input"
      />
    </Field>
  );
}
