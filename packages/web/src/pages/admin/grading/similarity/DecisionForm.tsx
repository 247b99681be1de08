import { SimilarityDecideBody, type SimilarityPairView, type SimilarityStatus } from '@examhall/contract';
import { App, Button, Input, Radio, Space, Typography } from 'antd';
import { Form } from '../../../../shell/Form.js';
import { useEffect } from 'react';
import { errorText } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { serverTime } from '../../../../shell/serverTime.js';
import { zodRule } from '../../shared/zodRule.js';
import { useDecidePair } from './queries.js';

/** A grader's decision on a pair: confirmed or dismissed with a note (checked as typed), or open again. */
export function DecisionForm(props: { examId: number; pair: SimilarityPairView; canDecide: boolean }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const decide = useDecidePair();
  const [form] = Form.useForm<{ status: SimilarityStatus; note: string }>();
  const { pair } = props;
  useEffect(() => form.setFieldsValue({ status: pair.status, note: pair.note }), [form, pair.status, pair.note]);
  const save = (values: { status: SimilarityStatus; note: string }) =>
    decide.mutate(
      { exam_id: props.examId, pair_id: pair.id, status: values.status, note: values.note ?? '' },
      {
        onSuccess: () => void message.success(t('sim.decide.saved')),
        onError: (e) => void message.error(errorText(e)),
      },
    );
  return (
    <Form form={form} layout="vertical" onFinish={save} disabled={!props.canDecide} data-testid="similarity-decide">
      <Form.Item name="status" label={t('sim.decide')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'confirmed', label: t('sim.status.confirmed') },
            { value: 'dismissed', label: t('sim.status.dismissed') },
            { value: 'open', label: t('sim.status.open') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="note"
        label={t('sim.decide.note')}
        validateTrigger="onChange"
        rules={[zodRule(SimilarityDecideBody.shape.note, t('sim.decide.noteTooLong'))]}
      >
        <Input.TextArea rows={2} placeholder={t('sim.decide.notePlaceholder')} showCount maxLength={600} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={decide.isPending}>
          {t('sim.decide.save')}
        </Button>
        {pair.decided_at !== null && (
          <Typography.Text type="secondary">
            {t('sim.decidedBy', { name: pair.decided_by, at: serverTime(pair.decided_at) })}
          </Typography.Text>
        )}
      </Space>
    </Form>
  );
}
