import { ExamSmsBody, type ExamSmsData, type SmsTemplateField } from '@examhall/contract';
import { Alert, App, Button, Skeleton, Space, Tag, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import { LoadError } from '../shared/PageTitle.js';
import { useSaveSmsSettings, useSmsSettings } from './invitationQueries.js';
import { ReminderTags } from './ReminderTags.js';
import { SmsTemplateInput } from './SmsTemplateField.js';

/** What the preview fills in: the exam itself, a sample name and a link shaped like a real one. */
export interface SampleExam {
  id: number;
  name: string;
  start_at: number;
  end_at: number;
}

/** The exam's texts: the invitation and reminder templates with live previews, and when reminders go out. */
export function SmsSettingsPanel({ exam, readOnly }: { exam: SampleExam; readOnly: boolean }) {
  const settings = useSmsSettings(exam.id);
  if (settings.isError) return <LoadError error={settings.error} />;
  if (!settings.data) return <Skeleton active />;
  // Remounts on a save so the form starts again from what the server keeps.
  return <SmsForm key={JSON.stringify(settings.data)} exam={exam} data={settings.data} readOnly={readOnly} />;
}

function SmsForm({ exam, data, readOnly }: { exam: SampleExam; data: ExamSmsData; readOnly: boolean }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const save = useSaveSmsSettings();
  const [invitation, setInvitation] = useState(data.invitation_template);
  const [reminder, setReminder] = useState(data.reminder_template);
  const [minutes, setMinutes] = useState<number[]>(data.reminder_minutes);
  const body = {
    exam_id: exam.id,
    invitation_template: invitation,
    reminder_template: reminder,
    reminder_minutes: minutes,
  };
  const valid = ExamSmsBody.safeParse(body).success;
  const changed =
    invitation !== data.invitation_template ||
    reminder !== data.reminder_template ||
    minutes.join() !== data.reminder_minutes.join();
  const sample: Partial<Record<SmsTemplateField, string>> = {
    name: t('console.sms.sampleName'),
    exam: exam.name,
    start: serverTime(exam.start_at),
    end: serverTime(exam.end_at),
    link: `${window.location.origin}/exam/${exam.id}/10086`,
  };
  const failure = save.isError ? errorWithDetail(save.error) : null;
  return (
    <Form
      layout="vertical"
      style={{ maxWidth: 720 }}
      data-testid="sms-settings"
      onFinish={() => save.mutate(body, { onSuccess: () => void message.success(t('console.sms.saved')) })}
    >
      <Space style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('console.sms.settingsHint')}</Typography.Text>
        {data.is_default && <Tag>{t('console.sms.defaults')}</Tag>}
      </Space>
      <SmsTemplateInput
        id="sms-invitation"
        label={t('console.sms.invitationTemplate')}
        value={invitation}
        onChange={setInvitation}
        sample={sample}
        readOnly={readOnly}
      />
      <SmsTemplateInput
        id="sms-reminder"
        label={t('console.sms.reminderTemplate')}
        value={reminder}
        onChange={setReminder}
        sample={sample}
        readOnly={readOnly}
      />
      <ReminderTags value={minutes} onChange={setMinutes} readOnly={readOnly} />
      {failure && (
        <Alert type="error" showIcon title={failure.text} description={failure.detail} style={{ marginBottom: 16 }} />
      )}
      {!readOnly && (
        <Button
          type="primary"
          htmlType="submit"
          disabled={!valid || !changed}
          loading={save.isPending}
          data-testid="sms-save"
        >
          {t('console.common.save')}
        </Button>
      )}
    </Form>
  );
}
