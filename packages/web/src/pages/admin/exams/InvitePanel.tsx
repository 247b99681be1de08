import { api, DEFAULT_AREA_CODE, EXAM_MINUTES_MAX, InviteBody, InvitePhone, type InviteData } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Input, List, Switch, Tag, Typography } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import { firstProblem } from '../shared/zodRule.js';
import { parsePhones } from './draft.js';
import { useRefreshInvitations } from './invitationQueries.js';
import { useInvalidateExams } from './queries.js';
import { AreaCodeSelect } from '../shared/AreaCodeSelect.js';

/** Invites a few phones to the exam, each with its text unless staff turn it off (many at once: BulkInvitePanel). */
export function InvitePanel({ examId, readOnly }: { examId: number; readOnly: boolean }) {
  const { t } = useI18n();
  const invalidate = useInvalidateExams();
  const refresh = useRefreshInvitations();
  const [text, setText] = useState('');
  const [area, setArea] = useState(DEFAULT_AREA_CODE);
  const [extra, setExtra] = useState(0);
  const [sendSms, setSendSms] = useState(true);
  const [result, setResult] = useState<InviteData | null>(null);
  const phones = parsePhones(text, area);
  const body = { exam_id: examId, phones, extra_minutes: extra, send_sms: sendSms };
  const invalid = phones.filter((p) => !InvitePhone.safeParse(p).success);
  const problem =
    invalid.length > 0
      ? t('console.exams.invalidPhones', { list: invalid.map((p) => `+${p.area_code} ${p.phone}`).join('、') })
      : phones.length > 0
        ? firstProblem(InviteBody, body)
        : null;
  const invite = useMutation({
    mutationFn: () => request(api.examEditorInvite, { body }),
    onSuccess: (data) => {
      setResult(data);
      setText('');
      invalidate();
      // The new invitations and their texts show in the lists below at once.
      refresh();
    },
  });
  const failure = invite.isError ? errorWithDetail(invite.error) : null;
  return (
    <div style={{ maxWidth: 640 }} data-testid="exam-invite">
      <Form layout="vertical" disabled={readOnly} onFinish={() => invite.mutate()}>
        <Form.Item label={t('staff.create.areaCode')} htmlFor="invite-area" extra={t('console.exams.inviteAreaHint')}>
          <AreaCodeSelect id="invite-area" value={area} onChange={setArea} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item
          label={t('console.exams.invitePhones')}
          htmlFor="invite-phones"
          extra={t('console.exams.invitePhonesHint', {
            bulk: t('console.invitations.bulk'),
            list: t('console.invitations.fromList'),
          })}
          validateStatus={problem ? 'error' : undefined}
          help={problem ?? undefined}
        >
          <Input.TextArea
            id="invite-phones"
            rows={4}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={'13800138000\n+852 61234567'}
            data-testid="invite-phones"
          />
        </Form.Item>
        <Form.Item label={t('console.exams.inviteExtra')} htmlFor="invite-extra">
          <InputNumber
            id="invite-extra"
            min={0}
            max={EXAM_MINUTES_MAX}
            precision={0}
            value={extra}
            onChange={(v) => setExtra(v ?? 0)}
            suffix={t('console.exams.minutesUnit')}
          />
        </Form.Item>
        <Form.Item label={t('console.invitations.sendSms')} htmlFor="invite-sms">
          <Switch id="invite-sms" checked={sendSms} onChange={setSendSms} data-testid="invite-sms" />
        </Form.Item>
        {failure && (
          <Alert type="error" showIcon title={failure.text} description={failure.detail} style={{ marginBottom: 16 }} />
        )}
        <Button
          type="primary"
          htmlType="submit"
          disabled={phones.length === 0 || problem !== null}
          loading={invite.isPending}
          data-testid="invite-submit"
        >
          {t('console.exams.inviteSubmit', { n: phones.length })}
        </Button>
      </Form>
      {result && (
        <List
          style={{ marginTop: 16 }}
          size="small"
          bordered
          header={<Typography.Text strong>{t('console.exams.inviteResult')}</Typography.Text>}
          dataSource={result.list}
          data-testid="invite-result"
          renderItem={(r) => (
            <List.Item>
              +{r.area_code} {r.phone}{' '}
              {r.created ? (
                <Tag color="green">{t('console.exams.invited')}</Tag>
              ) : (
                <Tag>{t('console.exams.alreadyInvited')}</Tag>
              )}
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
