import { REMINDERS_MAX } from '@examhall/contract';
import { Button, Input, Space, Tag, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { parseReminder, REMINDER_PRESETS } from './invitationText.js';

/** The longest reminder lead, minutes (14 days), as the server allows. */
const REMINDER_MAX_MINUTES = 14 * 1440;

/** "1 day", "2 h 30 min": a reminder's lead as staff read it. */
export function useLeadText() {
  const { t } = useI18n();
  return (minutes: number) => {
    const d = Math.floor(minutes / 1440);
    const h = Math.floor((minutes % 1440) / 60);
    const m = minutes % 60;
    const parts = [
      d > 0 ? t('console.sms.days', { n: d }) : '',
      h > 0 ? t('console.sms.hours', { n: h }) : '',
      m > 0 ? t('console.sms.minutes', { n: m }) : '',
    ];
    return parts.filter(Boolean).join(' ');
  };
}

/** Reminder times as tags (largest first): add one typed as "90", "2h" or "1d", or a preset; remove with ×. */
export function ReminderTags({
  value,
  onChange,
  readOnly,
}: {
  value: number[];
  onChange: (v: number[]) => void;
  readOnly: boolean;
}) {
  const { t } = useI18n();
  const lead = useLeadText();
  const [text, setText] = useState('');
  const typed = text.trim() === '' ? null : parseReminder(text);
  const problem =
    text.trim() === ''
      ? null
      : typed === null
        ? t('console.sms.reminderFormat')
        : typed > REMINDER_MAX_MINUTES
          ? t('console.sms.reminderTooFar')
          : value.includes(typed)
            ? t('console.sms.reminderTwice')
            : null;
  const full = value.length >= REMINDERS_MAX;
  const add = (m: number) => {
    if (value.includes(m) || full) return;
    onChange([...value, m].sort((a, b) => b - a));
    setText('');
  };
  return (
    <Form.Item
      label={t('console.sms.reminders')}
      htmlFor="sms-reminder-input"
      validateStatus={problem ? 'error' : undefined}
      help={problem ?? (full ? t('console.sms.remindersFull', { n: REMINDERS_MAX }) : t('console.sms.remindersHint'))}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space wrap data-testid="sms-reminders">
          {value.length === 0 && <Typography.Text type="secondary">{t('console.sms.noReminders')}</Typography.Text>}
          {value.map((m) => (
            <Tag key={m} closable={!readOnly} onClose={() => onChange(value.filter((x) => x !== m))} data-minutes={m}>
              {t('console.sms.before', { lead: lead(m) })}
            </Tag>
          ))}
        </Space>
        {!readOnly && (
          <Space wrap>
            <Input
              id="sms-reminder-input"
              style={{ width: 160 }}
              value={text}
              disabled={full}
              placeholder="90 / 2h / 1d"
              onChange={(e) => setText(e.target.value)}
              onPressEnter={(e) => {
                e.preventDefault();
                if (typed !== null && problem === null) add(typed);
              }}
            />
            <Button disabled={typed === null || problem !== null || full} onClick={() => typed !== null && add(typed)}>
              {t('console.sms.addReminder')}
            </Button>
            {REMINDER_PRESETS.map((m) => (
              <Button key={m} type="dashed" disabled={full || value.includes(m)} onClick={() => add(m)}>
                {t('console.sms.before', { lead: lead(m) })}
              </Button>
            ))}
          </Space>
        )}
      </Space>
    </Form.Item>
  );
}
