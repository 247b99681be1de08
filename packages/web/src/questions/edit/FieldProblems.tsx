import { Form } from '../../shell/Form.js';
import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/index.js';
import { problemsOf, type Problem, type Text } from '../problems.js';

/** Says a problem's text in the current language. */
export function useText(): (text: Text) => string {
  const { t } = useI18n();
  return (text) => t(text.key, text.params);
}

/** The messages of the problems a field shows, one per line. */
export function ProblemLines({ problems }: { problems: readonly Problem[] }) {
  const say = useText();
  if (problems.length === 0) return null;
  return (
    <span data-testid="field-problems">
      {problems.map((p, i) => (
        <span key={i} style={{ display: 'block' }}>
          {say(p.text)}
        </span>
      ))}
    </span>
  );
}

/**
 * One labelled field with the problems the schema found at it shown under it (the field is named by its
 * draft path: content.stem, key.option, content.options.1, ...).
 */
export function Field({
  label,
  field,
  problems,
  children,
  extra,
  htmlFor,
}: {
  label: ReactNode;
  /** The field (or fields) whose problems it shows. */
  field: string | readonly string[];
  problems: readonly Problem[];
  children: ReactNode;
  extra?: ReactNode;
  htmlFor?: string;
}) {
  const fields = typeof field === 'string' ? [field] : field;
  const mine = fields.flatMap((f) => problemsOf(problems, f));
  return (
    <Form.Item
      label={label}
      htmlFor={htmlFor}
      validateStatus={mine.length > 0 ? 'error' : undefined}
      help={mine.length > 0 ? <ProblemLines problems={mine} /> : undefined}
      extra={extra}
      data-field={fields.join(' ')}
    >
      {children}
    </Form.Item>
  );
}
