import type { CandidateImportPreviewData, CandidateImportResult, JobView } from '@examhall/contract';
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Drawer, Progress, Result, Space, Steps, Switch, Typography, Upload } from 'antd';
import { useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { BulkResult } from '../exams/BulkInvitePanel.js';
import { JobProgress } from '../jobs/JobProgress.js';
import { ImportPreview } from './ImportPreview.js';
import { useCandidateTemplate, useImportCommit, useImportPreview, type ImportOutcome } from './queries.js';

/** The exam an import invites its candidates to (the drawer opened from the exam's Invitations tab). */
export interface InviteTarget {
  examId: number;
  examName: string;
}

/** Where the wizard is. */
type Stage = 'upload' | 'preview' | 'commit';

/** Progress of the invitation job an import started, then what it made. */
function InviteStage(props: { job: JobView | null; outcome: ImportOutcome | undefined }) {
  const { t } = useI18n();
  if (props.outcome?.invited) return <BulkResult result={props.outcome.invited} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="candidate-invite-job">
      <Typography.Text>{t('cand.import.inviting')}</Typography.Text>
      {props.job && <JobProgress job={props.job} />}
    </Space>
  );
}

/** Progress and result of the import job (and of the invitation it may start). */
function CommitStage(props: {
  job: JobView | null;
  inviteJob: JobView | null;
  inviting: boolean;
  outcome: ImportOutcome | undefined;
  error: string | null;
}) {
  const { t } = useI18n();
  if (props.error) return <Alert type="error" showIcon title={props.error} data-testid="candidate-import-failed" />;
  // The import's result is known from its job as soon as it is done, before the invitation ends.
  const done = props.job?.state === 'done' ? (props.job.result as CandidateImportResult) : undefined;
  const imported = props.outcome?.imported ?? done;
  if (imported) {
    return (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Result status="success" title={t('cand.import.done', { ...imported })} data-testid="candidate-import-done" />
        {props.inviting && <InviteStage job={props.inviteJob} outcome={props.outcome} />}
      </Space>
    );
  }
  const p = props.job?.progress;
  const percent = p && p.total > 0 ? Math.round((p.done / p.total) * 100) : 0;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Progress
        percent={percent}
        status="active"
        aria-label={t('cand.import.progress', { done: p?.done ?? 0, total: p?.total ?? 0 })}
        data-testid="candidate-import-progress"
      />
      {p && <Typography.Text>{t('cand.import.progress', { done: p.done, total: p.total })}</Typography.Text>}
    </Space>
  );
}

/**
 * The import wizard: upload a file, see its preview with problems, import it as a job with progress. Opened for
 * an exam (`invite`), it then invites the imported candidates to it and follows that job too.
 */
export function ImportDrawer(props: { open: boolean; onClose: () => void; invite?: InviteTarget }) {
  const { t, lang } = useI18n();
  const [stage, setStage] = useState<Stage>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CandidateImportPreviewData | null>(null);
  const [onlyValid, setOnlyValid] = useState(false);
  const [job, setJob] = useState<JobView | null>(null);
  const [inviteJob, setInviteJob] = useState<JobView | null>(null);
  const [sendSms, setSendSms] = useState(true);
  const read = useImportPreview();
  const commit = useImportCommit(setJob, setInviteJob);
  const template = useCandidateTemplate();
  const reset = () => {
    setStage('upload');
    setFile(null);
    setPreview(null);
    setJob(null);
    setInviteJob(null);
    setOnlyValid(false);
    read.reset();
    commit.reset();
  };
  const choose = (f: File) => {
    setFile(f);
    read.mutate(f, {
      onSuccess: (p) => {
        setPreview(p);
        setStage('preview');
      },
    });
    return false;
  };
  const start = () => {
    if (!file || !preview) return;
    setStage('commit');
    commit.mutate({
      file,
      sha256: preview.sha256,
      onlyValid,
      invite: props.invite ? { examId: props.invite.examId, sendSms } : null,
    });
  };
  const blocked =
    !preview || (preview.counts.invalid > 0 && !onlyValid) || preview.counts.candidates === preview.counts.invalid;
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      afterOpenChange={(o) => !o && reset()}
      title={props.invite ? t('cand.import.inviteTitle', { exam: props.invite.examName }) : t('cand.import.title')}
      // Room for the preview table's columns (antd's "large" is 736 px, and `size` wins over `width`).
      size={960}
    >
      <Steps
        current={['upload', 'preview', 'commit'].indexOf(stage)}
        items={[
          { title: t('cand.import.step.upload') },
          { title: t('cand.import.step.preview') },
          { title: t('cand.import.step.commit') },
        ]}
        style={{ marginBottom: 24 }}
      />
      {stage === 'upload' && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('cand.import.hint')}</Typography.Paragraph>
          <Button
            onClick={() => template.mutate(lang === 'zh-CN' ? 'zh' : 'en')}
            loading={template.isPending}
            data-testid="candidate-template"
          >
            {t('cand.import.template')}
          </Button>
          <Upload.Dragger
            accept=".xlsx,.csv"
            showUploadList={false}
            beforeUpload={choose}
            disabled={read.isPending}
            data-testid="candidate-import-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined aria-hidden />
            </p>
            <p>{read.isPending ? t('cand.import.reading') : t('cand.import.choose')}</p>
          </Upload.Dragger>
          {read.error && (
            <Alert type="error" showIcon title={errorText(read.error)} data-testid="candidate-import-error" />
          )}
        </Space>
      )}
      {stage === 'preview' && preview && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <ImportPreview preview={preview} />
          {props.invite && (
            <Space>
              <Switch
                checked={sendSms}
                onChange={setSendSms}
                aria-label={t('cand.import.inviteSms')}
                data-testid="candidate-invite-sms"
              />
              <Typography.Text>{t('cand.import.inviteSms')}</Typography.Text>
            </Space>
          )}
          <Space wrap>
            <Button onClick={reset} data-testid="candidate-import-again">
              {t('cand.import.again')}
            </Button>
            {preview.counts.invalid > 0 && (
              <Checkbox checked={onlyValid} onChange={(e) => setOnlyValid(e.target.checked)}>
                {t('cand.import.onlyValid')}
              </Checkbox>
            )}
            <Button type="primary" disabled={blocked} onClick={start} data-testid="candidate-import-start">
              {props.invite ? t('cand.import.startInvite') : t('cand.import.start')}
            </Button>
          </Space>
        </Space>
      )}
      {stage === 'commit' && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <CommitStage
            job={job}
            inviteJob={inviteJob}
            inviting={props.invite !== undefined}
            outcome={commit.data}
            error={commit.error ? errorText(commit.error) : null}
          />
          {(commit.isSuccess || commit.isError) && <Button onClick={reset}>{t('cand.import.again')}</Button>}
        </Space>
      )}
    </Drawer>
  );
}
