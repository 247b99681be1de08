import type { CandidateImportPreviewData, CandidateImportResult, JobView } from '@examhall/contract';
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Drawer, Progress, Result, Space, Steps, Typography, Upload } from 'antd';
import { useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { ImportPreview } from './ImportPreview.js';
import { useCandidateTemplate, useImportCommit, useImportPreview } from './queries.js';

/** Where the wizard is. */
type Stage = 'upload' | 'preview' | 'commit';

/** Progress and result of the import job. */
function CommitStage(props: { job: JobView | null; result: CandidateImportResult | undefined; error: string | null }) {
  const { t } = useI18n();
  if (props.error) return <Alert type="error" showIcon title={props.error} />;
  if (props.result) {
    return (
      <Result status="success" title={t('cand.import.done', { ...props.result })} data-testid="candidate-import-done" />
    );
  }
  const p = props.job?.progress;
  const percent = p && p.total > 0 ? Math.round((p.done / p.total) * 100) : 0;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Progress percent={percent} status="active" data-testid="candidate-import-progress" />
      {p && <Typography.Text>{t('cand.import.progress', { done: p.done, total: p.total })}</Typography.Text>}
    </Space>
  );
}

/** The import wizard: upload a file, see its preview with problems, import it as a job with progress. */
export function ImportDrawer(props: { open: boolean; onClose: () => void }) {
  const { t, lang } = useI18n();
  const [stage, setStage] = useState<Stage>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CandidateImportPreviewData | null>(null);
  const [onlyValid, setOnlyValid] = useState(false);
  const [job, setJob] = useState<JobView | null>(null);
  const read = useImportPreview();
  const commit = useImportCommit(setJob);
  const template = useCandidateTemplate();
  const reset = () => {
    setStage('upload');
    setFile(null);
    setPreview(null);
    setJob(null);
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
    commit.mutate({ file, sha256: preview.sha256, onlyValid });
  };
  const blocked =
    !preview || (preview.counts.invalid > 0 && !onlyValid) || preview.counts.candidates === preview.counts.invalid;
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      afterOpenChange={(o) => !o && reset()}
      title={t('cand.import.title')}
      size="large"
      width={960}
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
              <InboxOutlined />
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
          <Space>
            <Button onClick={reset} data-testid="candidate-import-again">
              {t('cand.import.again')}
            </Button>
            {preview.counts.invalid > 0 && (
              <Checkbox checked={onlyValid} onChange={(e) => setOnlyValid(e.target.checked)}>
                {t('cand.import.onlyValid')}
              </Checkbox>
            )}
            <Button type="primary" disabled={blocked} onClick={start} data-testid="candidate-import-start">
              {t('cand.import.start')}
            </Button>
          </Space>
        </Space>
      )}
      {stage === 'commit' && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <CommitStage job={job} result={commit.data} error={commit.error ? errorText(commit.error) : null} />
          {(commit.isSuccess || commit.isError) && <Button onClick={reset}>{t('cand.import.again')}</Button>}
        </Space>
      )}
    </Drawer>
  );
}
