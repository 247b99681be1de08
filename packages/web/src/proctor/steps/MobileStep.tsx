/** The phone as second camera: the QR code of the phone page and its live status. */
import { examCalls, monitorCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Tag, Typography } from 'antd';
import { errorText, request } from '../../api/client.js';
import { queryKey } from '../../api/queryKeys.js';
import { useI18n } from '../../i18n/index.js';
import { useRecordCheck, type StepProps } from './hooks.js';
import { StepActions } from './widgets.js';

/** Phone as second camera: the QR code of the phone page and its live status. */
export function MobileStep(props: StepProps) {
  const { t } = useI18n();
  const record = useRecordCheck(props, 'mobileDevice');
  const qr = useQuery({
    queryKey: queryKey(examCalls.miniQrcode, { exam_id: props.examId, anid: props.anid }),
    queryFn: ({ signal }) =>
      request(examCalls.miniQrcode, { query: { exam_id: props.examId, anid: props.anid }, signal }),
    // The link is short-lived: fetch a new one shortly before it runs out.
    refetchInterval: (query) => {
      const expires = query.state.data?.expires_at;
      return expires ? Math.max(10_000, expires - Date.now() - 30_000) : false;
    },
  });
  const state = useQuery({
    queryKey: queryKey(monitorCalls.monitorState, { exam_id: props.examId }),
    queryFn: ({ signal }) => request(monitorCalls.monitorState, { query: { exam_id: props.examId }, signal }),
    refetchInterval: 2_000,
  });
  const connected = state.data?.mobileDeviceStatus === 1;
  return (
    <div data-testid="step-mobileDevice">
      <Typography.Paragraph>{t('proctor.mobile.intro')}</Typography.Paragraph>
      {qr.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('proctor.mobile.qrFailed', { msg: errorText(qr.error) })}
          action={
            <Button size="small" onClick={() => void qr.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {qr.data && (
        <Flex gap={16} wrap align="center">
          <img src={qr.data.image} alt={t('proctor.mobile.qrAlt')} width={200} height={200} data-testid="phone-qr" />
          <div style={{ maxWidth: 420 }}>
            <Typography.Paragraph>{t('proctor.mobile.scan')}</Typography.Paragraph>
            <Typography.Paragraph copyable={{ text: qr.data.url }} style={{ wordBreak: 'break-all' }}>
              <a href={qr.data.url} target="_blank" rel="noreferrer" data-testid="phone-link">
                {qr.data.url}
              </a>
            </Typography.Paragraph>
          </div>
        </Flex>
      )}
      <div role="status" aria-live="polite" style={{ marginTop: 12 }}>
        {connected ? (
          <Tag color="green" data-testid="phone-status" data-connected="1">
            {t('proctor.mobile.connected')}
          </Tag>
        ) : (
          <Tag data-testid="phone-status" data-connected="0">
            {t('proctor.mobile.waiting')}
          </Tag>
        )}
      </div>
      <StepActions
        canPass={connected}
        record={record}
        skippable={props.skippable}
        onPass={() => record.run('passed', 'phone')}
      />
    </div>
  );
}
