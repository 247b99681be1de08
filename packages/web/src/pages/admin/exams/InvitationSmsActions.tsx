import { RevokeBody } from '@examhall/contract';
import { Alert, App, Button, Input, Modal, Space, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { resendMessage } from './heldTexts.js';
import { useResend, useRevoke } from './invitationQueries.js';

/**
 * "Resend SMS" and "Revoke" for invitations (selected ones, or one row): revoking asks why (kept in the audit
 * log); invitations skipped (started already, revoked before) are named afterwards, and texts the budgets held
 * back are counted with their reasons.
 */
export function InvitationSmsActions({
  examId,
  anids,
  size,
  testId = 'invitations',
  onDone,
}: {
  examId: number;
  anids: number[];
  size?: 'small';
  /** Prefix of the buttons' test ids (a row's differ from the bulk bar's). */
  testId?: string;
  onDone?: () => void;
}) {
  const { t } = useI18n();
  const { message, modal } = App.useApp();
  const resend = useResend();
  const [revoking, setRevoking] = useState(false);
  const showSkipped = (skipped: number[]) => {
    if (skipped.length > 0)
      modal.warning({
        title: t('console.invitations.skippedTitle', { n: skipped.length }),
        content: <span data-testid="invitations-skipped">{skipped.map((id) => `#${id}`).join(', ')}</span>,
      });
  };
  const doResend = () =>
    resend.mutate(
      { exam_id: examId, anids },
      {
        onSuccess: (r) => {
          const said = resendMessage(t, r);
          void (said.held ? message.warning(said.text) : message.success(said.text));
          showSkipped(r.skipped);
          onDone?.();
        },
        onError: (e) => void message.error(errorText(e)),
      },
    );
  return (
    <>
      <Button
        size={size}
        disabled={anids.length === 0}
        loading={resend.isPending}
        onClick={doResend}
        data-testid={`${testId}-resend`}
      >
        {t('console.invitations.resend')}
      </Button>
      <Button
        size={size}
        danger
        disabled={anids.length === 0}
        onClick={() => setRevoking(true)}
        data-testid={`${testId}-revoke`}
      >
        {t('console.invitations.revoke')}
      </Button>
      {revoking && (
        <RevokeModal
          examId={examId}
          anids={anids}
          onClose={() => setRevoking(false)}
          onRevoked={(skipped) => {
            showSkipped(skipped);
            onDone?.();
          }}
        />
      )}
    </>
  );
}

/** Asks for the reason, then revokes. */
function RevokeModal({
  examId,
  anids,
  onClose,
  onRevoked,
}: {
  examId: number;
  anids: number[];
  onClose: () => void;
  onRevoked: (skipped: number[]) => void;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const revoke = useRevoke();
  const [reason, setReason] = useState('');
  const valid = RevokeBody.safeParse({ exam_id: examId, anids, reason }).success;
  const submit = () =>
    revoke.mutate(
      { exam_id: examId, anids, reason },
      {
        onSuccess: (r) => {
          void message.success(t('console.invitations.revoked', { n: r.revoked.length }));
          onClose();
          onRevoked(r.skipped);
        },
      },
    );
  return (
    <Modal
      open
      title={t('console.invitations.revokeTitle', { n: anids.length })}
      onCancel={onClose}
      onOk={submit}
      okText={t('console.invitations.revoke')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ danger: true, disabled: !valid, loading: revoke.isPending, 'data-testid': 'revoke-ok' }}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('console.invitations.revokeHint')}</Typography.Text>
        <Form layout="vertical">
          <Form.Item
            label={t('console.invitations.revokeReason')}
            htmlFor="revoke-reason"
            required
            validateStatus={reason.length > 500 ? 'error' : undefined}
            help={reason.length > 500 ? t('console.invitations.reasonTooLong') : undefined}
          >
            <Input.TextArea
              id="revoke-reason"
              rows={3}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              data-testid="revoke-reason"
            />
          </Form.Item>
        </Form>
        {revoke.isError && <Alert type="error" showIcon title={errorText(revoke.error)} />}
      </Space>
    </Modal>
  );
}
