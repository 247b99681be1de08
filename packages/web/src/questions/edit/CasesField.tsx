import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Table, Typography } from 'antd';
import { useRef, useState } from 'react';
import { errorText } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import type { CaseDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { formatBytes, UPLOAD_LIMITS, uploadCases, utf8Bytes } from '../uploads.js';
import { Field } from './FieldProblems.js';

/** The hidden cases: read by the server from a zip of .in/.out pairs, listed by name and size. */
export function CasesField({
  cases,
  onChange,
  problems,
  idPrefix,
}: {
  cases: CaseDraft[];
  onChange: (cases: CaseDraft[]) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > UPLOAD_LIMITS.cases) {
      setError(t('qedit.casesTooLarge', { mb: UPLOAD_LIMITS.cases / 1024 / 1024 }));
      return;
    }
    setProgress(0);
    try {
      const data = await uploadCases(file, (f) => setProgress(Math.round(f * 100)));
      onChange(data.cases);
    } catch (e) {
      setError(t('qedit.casesFailed', { msg: errorText(e) }));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const rows = cases.map((c, i) => ({
    key: i,
    name: c.name ?? String(i + 1),
    input: utf8Bytes(c.input),
    output: utf8Bytes(c.output),
  }));
  const total = rows.reduce((n, r) => n + r.input + r.output, 0);
  return (
    <Field label={t('qedit.cases')} field="key.cases" problems={problems} extra={t('qedit.casesHint')}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <input
            ref={input}
            id={`${idPrefix}-cases-file`}
            type="file"
            accept=".zip,application/zip"
            className="visually-hidden"
            tabIndex={-1}
            aria-label={t('qedit.casesUpload')}
            onChange={(e) => void onFile(e.target.files?.[0])}
            data-testid="cases-file-input"
          />
          <Button
            icon={<UploadOutlined aria-hidden />}
            loading={progress !== null}
            onClick={() => input.current?.click()}
            data-testid="cases-upload"
          >
            {progress !== null ? `${progress}%` : cases.length > 0 ? t('qedit.casesReplace') : t('qedit.casesUpload')}
          </Button>
          {cases.length > 0 && (
            <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => onChange([])}>
              {t('qedit.casesClear')}
            </Button>
          )}
        </Space>
        {error && <Alert type="error" showIcon role="alert" title={error} />}
        {cases.length === 0 ? (
          <Typography.Text type="secondary">{t('qedit.casesNone')}</Typography.Text>
        ) : (
          <>
            <Typography.Text data-testid="cases-summary">
              {t('qedit.casesSummary', { n: cases.length, size: formatBytes(total) })}
            </Typography.Text>
            <Table
              size="small"
              dataSource={rows}
              pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
              columns={[
                { title: t('qedit.caseName'), dataIndex: 'name' },
                { title: t('qedit.caseInput'), dataIndex: 'input', render: (n: number) => formatBytes(n) },
                { title: t('qedit.caseOutput'), dataIndex: 'output', render: (n: number) => formatBytes(n) },
              ]}
              data-testid="cases-table"
            />
          </>
        )}
      </Space>
    </Field>
  );
}
