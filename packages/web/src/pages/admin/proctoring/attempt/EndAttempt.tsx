import { api } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { request } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { attemptKey } from '../liveGrid.js';

/** Ends the attempt after a confirmation that asks for the reason (kept in the audit log, shown to the candidate). */
export function EndAttempt({ attemptId, name }: { attemptId: number; name: string }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const end = useMutation({
    mutationFn: () => request(api.proctorEnd, { body: { attempt_id: attemptId, reason } }),
    onSuccess: () => {
      setOpen(false);
      setReason('');
      void queryClient.invalidateQueries({ queryKey: attemptKey(attemptId) });
      void message.success(t('console.proctor.ended'));
    },
  });
  return (
    <>
      <Button danger onClick={() => setOpen(true)} data-testid="proctor-end">
        {t('console.proctor.end')}
      </Button>
      <Modal
        open={open}
        title={t('console.proctor.endTitle', { name })}
        okText={t('console.proctor.endConfirm')}
        okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: end.isPending }}
        cancelText={t('console.proctor.cancel')}
        onOk={() => end.mutate()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('console.proctor.endBody')}</Typography.Paragraph>
        <label htmlFor="proctor-end-reason">{t('console.proctor.endReason')}</label>
        <Input.TextArea
          id="proctor-end-reason"
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="proctor-end-reason"
          autoFocus
        />
        {end.isError && <Alert type="error" showIcon title={end.error.message} style={{ marginTop: 8 }} />}
      </Modal>
    </>
  );
}
