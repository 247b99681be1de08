import { BULK_INVITE_MAX, DEFAULT_AREA_CODE, type BulkInviteResult, type JobView } from '@examhall/contract';
import { Alert, Button, Descriptions, Input, Space, Switch, Typography, Upload } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { JobProgress } from '../jobs/JobProgress.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import { heldReasons } from './heldTexts.js';
import { useBulkInvite } from './invitationQueries.js';
import { parseBulkPhones, type BadLine } from './invitationText.js';
import { AreaCodeSelect } from '../shared/AreaCodeSelect.js';

/** Bad lines shown at once; the rest are counted. */
const BAD_SHOWN = 20;
/** The largest phone list file read, bytes. */
const FILE_MAX = 2 * 1024 * 1024;

/**
 * Invites many phones at once: pasted one per line or read from a .txt/.csv, checked as they are typed, then
 * sent as a job whose progress shows until it ends with what it made.
 */
export function BulkInvitePanel({ examId, readOnly }: { examId: number; readOnly: boolean }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [area, setArea] = useState(DEFAULT_AREA_CODE);
  const [sendSms, setSendSms] = useState(true);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [job, setJob] = useState<JobView | null>(null);
  const bulk = useBulkInvite(setJob);
  const parsed = parseBulkPhones(text, area);
  const tooMany = parsed.valid.length > BULK_INVITE_MAX;
  const readFile = (file: File) => {
    if (file.size > FILE_MAX) setFileProblem(t('console.invitations.fileTooBig', { name: file.name }));
    else {
      setFileProblem(null);
      file.text().then(setText, () => setFileProblem(t('console.invitations.fileUnreadable', { name: file.name })));
    }
    return Upload.LIST_IGNORE;
  };
  const start = () => {
    setJob(null);
    bulk.mutate(
      { exam_id: examId, phones: parsed.valid, candidate_ids: [], send_sms: sendSms },
      { onSuccess: () => setText('') },
    );
  };
  const failure = bulk.isError ? errorWithDetail(bulk.error) : null;
  const hasLines = parsed.valid.length + parsed.invalid.length > 0;
  return (
    <Form layout="vertical" disabled={readOnly} style={{ maxWidth: 720 }} data-testid="bulk-invite" onFinish={start}>
      <Form.Item label={t('staff.create.areaCode')} htmlFor="bulk-area" extra={t('console.invitations.areaHint')}>
        <AreaCodeSelect id="bulk-area" value={area} onChange={setArea} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item
        label={t('console.invitations.bulkPhones')}
        htmlFor="bulk-phones"
        extra={t('console.invitations.bulkHint', { n: BULK_INVITE_MAX })}
        validateStatus={fileProblem || parsed.invalid.length > 0 || tooMany ? 'error' : undefined}
        help={fileProblem ?? (tooMany ? t('console.invitations.tooMany', { n: BULK_INVITE_MAX }) : undefined)}
      >
        <Input.TextArea
          id="bulk-phones"
          rows={6}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={'13800138000\n+852 51234567'}
          data-testid="bulk-phones"
        />
      </Form.Item>
      <Space wrap style={{ marginBottom: 16 }}>
        <Upload accept=".txt,.csv,text/plain,text/csv" showUploadList={false} beforeUpload={readFile}>
          <Button>{t('console.invitations.upload')}</Button>
        </Upload>
        <Switch checked={sendSms} onChange={setSendSms} aria-label={t('console.invitations.sendSms')} />
        <Typography.Text>{t('console.invitations.sendSms')}</Typography.Text>
      </Space>
      {hasLines && <LineSummary valid={parsed.valid.length} invalid={parsed.invalid} duplicates={parsed.duplicates} />}
      {failure && (
        <Alert type="error" showIcon title={failure.text} description={failure.detail} style={{ marginBottom: 16 }} />
      )}
      <Button
        type="primary"
        htmlType="submit"
        disabled={parsed.valid.length === 0 || parsed.invalid.length > 0 || tooMany}
        loading={bulk.isPending}
        data-testid="bulk-submit"
      >
        {t('console.invitations.bulkSubmit', { n: parsed.valid.length })}
      </Button>
      {job && (
        <div style={{ marginTop: 16 }} data-testid="bulk-job" data-state={job.state}>
          <JobProgress job={job} />
        </div>
      )}
      {bulk.data && <BulkResult result={bulk.data} />}
    </Form>
  );
}

/** How many lines are phones, and which are not (the invitation waits until they are fixed or removed). */
function LineSummary({ valid, invalid, duplicates }: { valid: number; invalid: BadLine[]; duplicates: number }) {
  const { t } = useI18n();
  return (
    <Alert
      style={{ marginBottom: 16 }}
      type={invalid.length > 0 ? 'warning' : 'success'}
      showIcon
      data-testid="bulk-summary"
      title={t('console.invitations.lineCounts', { valid, invalid: invalid.length, dup: duplicates })}
      description={
        invalid.length > 0 && (
          <>
            <Typography.Text>{t('console.invitations.fixLines')}</Typography.Text>
            <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="bulk-invalid">
              {invalid.slice(0, BAD_SHOWN).map((b) => (
                <li key={b.line}>{t('console.invitations.badLine', { line: b.line, text: b.text })}</li>
              ))}
              {invalid.length > BAD_SHOWN && (
                <li>{t('console.invitations.moreBad', { n: invalid.length - BAD_SHOWN })}</li>
              )}
            </ul>
          </>
        )
      }
    />
  );
}

/** What the job made: invitations new and existing, texts queued and held back (why), candidate ids that named nobody. */
export function BulkResult({ result }: { result: BulkInviteResult }) {
  const { t } = useI18n();
  return (
    <Descriptions
      style={{ marginTop: 16 }}
      size="small"
      bordered
      column={1}
      title={t('console.invitations.resultTitle')}
      data-testid="bulk-result"
      items={[
        { key: 'created', label: t('console.invitations.created'), children: result.created },
        { key: 'existing', label: t('console.invitations.existing'), children: result.existing },
        { key: 'queued', label: t('console.invitations.queued'), children: result.queued },
        // A job run before texts had budgets has no `held` (undefined > 0 is false).
        ...(result.held > 0
          ? [
              {
                key: 'held',
                label: t('console.invitations.held'),
                children: (
                  <Space size={8} wrap data-testid="bulk-held">
                    {result.held}
                    <Typography.Text type="secondary">{heldReasons(t, result.held_by)}</Typography.Text>
                  </Space>
                ),
              },
            ]
          : []),
        {
          key: 'unknown',
          label: t('console.invitations.unknown'),
          children: result.unknown_candidates.length > 0 ? result.unknown_candidates.join(', ') : '0',
        },
      ]}
    />
  );
}
