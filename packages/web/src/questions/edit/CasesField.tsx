import { DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Table, Typography } from 'antd';
import { useI18n } from '../../i18n/index.js';
import type { CaseDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { formatBytes, UPLOAD_LIMITS, uploadCases, utf8Bytes } from '../uploads.js';
import { Field } from './FieldProblems.js';
import { FilePicker, useFileUpload } from './FilePicker.js';

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
  const upload = useFileUpload({
    maxBytes: UPLOAD_LIMITS.cases,
    tooLarge: t('qedit.casesTooLarge', { mb: UPLOAD_LIMITS.cases / 1024 / 1024 }),
    failed: (msg) => t('qedit.casesFailed', { msg }),
    send: uploadCases,
    onSent: (data) => onChange(data.cases),
  });

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
          <FilePicker
            upload={upload}
            id={`${idPrefix}-cases-file`}
            accept=".zip,application/zip"
            label={t('qedit.casesUpload')}
            text={cases.length > 0 ? t('qedit.casesReplace') : t('qedit.casesUpload')}
            testId="cases"
          />
          {cases.length > 0 && (
            <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => onChange([])}>
              {t('qedit.casesClear')}
            </Button>
          )}
        </Space>
        {upload.error && <Alert type="error" showIcon role="alert" title={upload.error} />}
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
