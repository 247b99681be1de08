import { SafetyCertificateOutlined } from '@ant-design/icons';
import { api, formatServerTime, type BankVerification, type BankVerifiedCase } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { errorText, request } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import type { EditorContext } from './types.js';

/**
 * The "verify" button: the judge runs the stored question's reference solution on every sample and hidden
 * case; the verdict of each is shown. It judges the saved version, so a new or changed question is saved first.
 */
export function VerifyPanel({ hasReference, ctx }: { hasReference: boolean; ctx: EditorContext }) {
  const { t } = useI18n();
  const [latest, setLatest] = useState<BankVerification | null>(null);
  const verify = useMutation({
    mutationFn: (questionId: number) => request(api.bankVerify, { body: { question_id: questionId } }),
    onSuccess: (data) => {
      setLatest(data);
      ctx.onVerified?.(data);
    },
  });
  const shown = latest ?? ctx.verification ?? null;
  const blocked =
    ctx.questionId === undefined
      ? t('qedit.verifyNew')
      : ctx.unsaved
        ? t('qedit.verifyUnsaved')
        : !hasReference
          ? t('qedit.verifyNoReference')
          : null;
  const questionId = ctx.questionId;
  return (
    <Space orientation="vertical" style={{ width: '100%', marginTop: 12 }} data-testid="verify-panel">
      <Space wrap>
        <Button
          icon={<SafetyCertificateOutlined aria-hidden />}
          disabled={blocked !== null}
          loading={verify.isPending}
          onClick={() => {
            if (questionId !== undefined) verify.mutate(questionId);
          }}
          data-testid="reference-verify"
        >
          {t('qedit.verify')}
        </Button>
        {blocked && <Typography.Text type="secondary">{blocked}</Typography.Text>}
      </Space>
      {verify.isError && (
        <Alert type="error" showIcon role="alert" title={t('qedit.verifyError', { msg: errorText(verify.error) })} />
      )}
      {shown && <VerificationResult verification={shown} />}
    </Space>
  );
}

const VERDICT_COLOR: Record<string, string> = { AC: 'green', WA: 'red', CE: 'orange', SE: 'default' };

/** A check's outcome: passed or what failed, then every case's verdict, time and memory. */
function VerificationResult({ verification: v }: { verification: BankVerification }) {
  const { t } = useI18n();
  const caseName = (c: BankVerifiedCase) =>
    c.kind === 'sample'
      ? t('qedit.verifySample', { n: c.number })
      : `${t('qedit.verifyHidden', { n: c.number })}${c.name ? ` (${c.name})` : ''}`;
  return (
    <div data-testid="verification" data-ok={v.ok ? 'true' : 'false'}>
      <Alert
        type={v.stale ? 'warning' : v.ok ? 'success' : 'error'}
        showIcon
        title={
          v.ok
            ? t('qedit.verifyOk', { n: v.cases.length })
            : t('qedit.verifyFailed', { problem: v.problem ?? v.verdict })
        }
        description={
          <>
            {v.stale && <div>{t('qedit.verifyStale')}</div>}
            <Typography.Text type="secondary">
              {t('qedit.verifyCheckedAt', { time: formatServerTime(v.checked_at) })}
            </Typography.Text>
          </>
        }
      />
      {v.compile_output && (
        <details style={{ marginTop: 8 }}>
          <summary>{t('qedit.verifyCompile')}</summary>
          <pre className="judge-output">{v.compile_output}</pre>
        </details>
      )}
      {v.cases.length > 0 && (
        <Table
          size="small"
          style={{ marginTop: 8 }}
          rowKey={(c) => `${c.kind}-${c.number}`}
          dataSource={v.cases}
          pagination={v.cases.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          columns={[
            { title: t('qedit.verifyCase'), key: 'case', render: (_: unknown, c: BankVerifiedCase) => caseName(c) },
            {
              title: t('qedit.verifyVerdict'),
              dataIndex: 'verdict',
              render: (verdict: string) => <Tag color={VERDICT_COLOR[verdict] ?? 'red'}>{verdict}</Tag>,
            },
            { title: t('qedit.verifyTime'), dataIndex: 'time_ms' },
            { title: t('qedit.verifyMemory'), dataIndex: 'memory_kb' },
          ]}
          data-testid="verification-cases"
        />
      )}
    </div>
  );
}
