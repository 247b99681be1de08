import { api } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Typography } from 'antd';
import { Form } from '../../../../shell/Form.js';
import { request } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { attemptKey } from '../liveGrid.js';

/** A warning the candidate sees at once. */
export function WarnForm({ attemptId }: { attemptId: number }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ text: string }>();
  const warn = useMutation({
    mutationFn: (text: string) => request(api.proctorWarn, { body: { attempt_id: attemptId, text } }),
    onSuccess: () => {
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: attemptKey(attemptId) });
      void message.success(t('console.proctor.warned'));
    },
  });
  return (
    <Form form={form} layout="vertical" onFinish={(v) => warn.mutate(v.text)}>
      <Form.Item
        name="text"
        label={t('console.proctor.warnLabel')}
        rules={[{ required: true, whitespace: true, message: t('console.proctor.warnRequired') }]}
        style={{ marginBottom: 8 }}
      >
        <Input.TextArea
          rows={2}
          maxLength={500}
          showCount
          placeholder={t('console.proctor.warnPlaceholder')}
          data-testid="proctor-warn-text"
        />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={warn.isPending} data-testid="proctor-warn-send">
          {t('console.proctor.warnSend')}
        </Button>
        {warn.isError && <Typography.Text type="danger">{warn.error.message}</Typography.Text>}
      </Space>
    </Form>
  );
}
