import { renderSmsTemplate, SMS_TEMPLATE_FIELDS, smsTemplateProblems, type SmsTemplateField } from '@examhall/contract';
import { Input, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import type { MessageParams } from '../../../i18n/format.js';
import { useI18n, type MessageKey } from '../../../i18n/index.js';
import { smsSize } from './invitationText.js';

/** A template's problems in the page's language (the contract names them as stable words). */
export function templateProblemTexts(t: (key: MessageKey, p?: MessageParams) => string, template: string): string[] {
  return smsTemplateProblems(template).map((p) =>
    p.startsWith('unknown:')
      ? t('console.sms.problem.unknown', { name: p.slice('unknown:'.length), fields: FIELD_LIST })
      : t(PROBLEMS[p] ?? 'console.sms.problem.other'),
  );
}

const FIELD_LIST = SMS_TEMPLATE_FIELDS.map((f) => `{${f}}`).join(' ');

const PROBLEMS: Record<string, MessageKey> = {
  empty: 'console.sms.problem.empty',
  too_long: 'console.sms.problem.tooLong',
  no_link: 'console.sms.problem.noLink',
};

/**
 * One template: checked as it is typed by the rules the server renders it with, and shown as a candidate would
 * read it with sample values, with its length and SMS segments.
 */
export function SmsTemplateInput({
  id,
  label,
  value,
  onChange,
  sample,
  readOnly,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  sample: Partial<Record<SmsTemplateField, string>>;
  readOnly: boolean;
}) {
  const { t } = useI18n();
  const problems = templateProblemTexts(t, value);
  const preview = renderSmsTemplate(value, sample);
  const size = smsSize(preview);
  return (
    <div style={{ marginBottom: 24 }}>
      <Form.Item
        style={{ marginBottom: 8 }}
        label={label}
        htmlFor={id}
        validateStatus={problems.length > 0 ? 'error' : undefined}
        help={problems.length > 0 ? problems.join('；') : t('console.sms.fields', { fields: FIELD_LIST })}
      >
        <Input.TextArea
          id={id}
          rows={3}
          value={value}
          disabled={readOnly}
          onChange={(e) => onChange(e.target.value)}
          data-testid={id}
        />
      </Form.Item>
      <div
        style={{ marginTop: 8, padding: 8, background: 'rgba(0,0,0,0.04)', borderRadius: 6 }}
        data-testid={`${id}-preview`}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('console.sms.preview')}
        </Typography.Text>
        {/* The text as sent, in its own language (a Chinese template on the English console). */}
        <div
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          lang={/[\u4e00-\u9fff]/.test(preview) ? 'zh-CN' : 'en'}
        >
          {preview}
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`${id}-size`}>
          {t('console.sms.size', {
            n: size.length,
            s: size.segments,
            per: size.perSegment,
            enc: size.encoding === 'gsm' ? 'GSM-7' : 'UCS-2',
          })}
        </Typography.Text>
      </div>
    </div>
  );
}
