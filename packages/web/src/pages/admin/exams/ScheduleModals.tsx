import { EXTRA_PERCENT_MAX, type SlotView } from '@examhall/contract';
import { Alert, App, Checkbox, DatePicker, Input, Modal, Radio, Select, Typography } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import type { Dayjs } from 'dayjs';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { fromPicker } from '../shared/serverClock.js';
import { useAccommodations, useAssignSlot, useReopen } from './scheduleQueries.js';

/** What a bulk change sets. */
export type BulkKind = 'slot' | 'extra' | 'window';

/** Longest extra time in minutes (a week), as the server allows. */
const MINUTES_MAX = 7 * 24 * 60;

interface BulkForm {
  slot_id?: number;
  mode?: 'minutes' | 'percent';
  value?: number;
  range?: [Dayjs | null, Dayjs | null] | null;
  clear?: boolean;
}

/** Sets the slot, the extra time or the personal window of the selected invitations. */
export function BulkModal({
  kind,
  examId,
  ids,
  slots,
  onClose,
}: {
  kind: BulkKind;
  examId: number;
  ids: number[];
  slots: SlotView[];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<BulkForm>();
  const assign = useAssignSlot();
  const accommodate = useAccommodations();
  const mode = Form.useWatch('mode', form) ?? 'minutes';
  const clear = Form.useWatch('clear', form) ?? false;
  const base = { exam_id: examId, invitation_ids: ids };
  const done = (r: { changed: number; attempts_moved: number }) => {
    void message.success(t('console.schedule.done', { n: r.changed, m: r.attempts_moved }));
    onClose();
  };
  const submit = (v: BulkForm) => {
    if (kind === 'slot')
      return assign.mutate({ ...base, slot_id: v.slot_id === 0 ? null : v.slot_id! }, { onSuccess: done });
    if (kind === 'extra')
      return accommodate.mutate({ ...base, extra: { mode, value: v.value ?? 0 } }, { onSuccess: done });
    const window = v.clear ? null : { start_at: fromPicker(v.range?.[0])!, end_at: fromPicker(v.range?.[1])! };
    return accommodate.mutate({ ...base, window }, { onSuccess: done });
  };
  const failure = assign.error ?? accommodate.error;
  const max = mode === 'minutes' ? MINUTES_MAX : EXTRA_PERCENT_MAX;
  const checkRange = (_: unknown, value: BulkForm['range']) => {
    if (clear) return Promise.resolve();
    const start = fromPicker(value?.[0]);
    const end = fromPicker(value?.[1]);
    if (start === null || end === null) return Promise.reject(new Error(t('console.schedule.rangeRequired')));
    return end > start ? Promise.resolve() : Promise.reject(new Error(t('console.schedule.rangeOrder')));
  };
  return (
    <Modal
      open
      title={`${t(TITLES[kind])} · ${t('console.schedule.selected', { n: ids.length })}`}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: assign.isPending || accommodate.isPending, 'aria-label': t('console.common.save') }}
      okText={t('console.common.save')}
      cancelText={t('console.common.cancel')}
    >
      <Form<BulkForm>
        form={form}
        layout="vertical"
        initialValues={{ mode: 'minutes', value: 15, slot_id: 0 }}
        onFinish={submit}
      >
        {kind === 'slot' && (
          <Form.Item name="slot_id" label={t('console.schedule.col.slot')}>
            <Select
              options={[
                { value: 0, label: t('console.schedule.noSlot') },
                ...slots.map((s) => ({
                  value: s.id,
                  label: `${s.label || serverTime(s.start_at)} (${s.taken}/${s.capacity})`,
                })),
              ]}
            />
          </Form.Item>
        )}
        {kind === 'extra' && (
          <>
            <Form.Item name="mode" label={t('console.schedule.extraMode')}>
              <Radio.Group
                options={[
                  { value: 'minutes', label: t('console.schedule.extraMode.minutes') },
                  { value: 'percent', label: t('console.schedule.extraMode.percent') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="value"
              label={t('console.schedule.extraValue')}
              extra={t('console.schedule.extraValueRange', { m: MINUTES_MAX, p: EXTRA_PERCENT_MAX })}
              rules={[{ required: true, type: 'integer', min: 0, max }]}
            >
              <InputNumber
                min={0}
                max={max}
                precision={0}
                suffix={mode === 'minutes' ? 'min' : '%'}
                data-testid="extra-value"
              />
            </Form.Item>
          </>
        )}
        {kind === 'window' && (
          <>
            <Form.Item
              name="range"
              label={t('console.schedule.range')}
              rules={[{ validator: checkRange }]}
              dependencies={['clear']}
            >
              <DatePicker.RangePicker disabled={clear} showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
            </Form.Item>
            <Form.Item name="clear" valuePropName="checked">
              <Checkbox>{t('console.schedule.windowClear')}</Checkbox>
            </Form.Item>
          </>
        )}
        {failure && <Alert type="error" showIcon title={errorText(failure)} />}
      </Form>
    </Modal>
  );
}

const TITLES = {
  slot: 'console.schedule.setSlot',
  extra: 'console.schedule.setExtra',
  window: 'console.schedule.setWindow',
} as const;

/** Reopens a finished attempt with a reason, for given minutes or the time it had left. */
export function ReopenModal({ attemptId, onClose }: { attemptId: number; onClose: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string; minutes?: number | null }>();
  const reopen = useReopen();
  return (
    <Modal
      open
      title={t('console.schedule.reopenTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: reopen.isPending }}
      okText={t('console.schedule.reopen')}
      cancelText={t('console.common.cancel')}
    >
      <Typography.Paragraph type="secondary">{t('console.schedule.reopenHint')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) =>
          reopen.mutate(
            { attempt_id: attemptId, reason: v.reason.trim(), ...(v.minutes ? { minutes: v.minutes } : {}) },
            {
              onSuccess: (r) => {
                void message.success(t('console.schedule.reopenDone', { time: serverTime(r.end_at) }));
                onClose();
              },
            },
          )
        }
      >
        <Form.Item
          name="reason"
          label={t('console.schedule.reopenReason')}
          rules={[{ required: true, whitespace: true, max: 500 }]}
        >
          <Input.TextArea maxLength={500} rows={3} data-testid="reopen-reason" />
        </Form.Item>
        <Form.Item
          name="minutes"
          label={t('console.schedule.reopenMinutes')}
          rules={[{ type: 'integer', min: 1, max: MINUTES_MAX }]}
        >
          <InputNumber min={1} max={MINUTES_MAX} precision={0} />
        </Form.Item>
        {reopen.isError && <Alert type="error" showIcon title={errorText(reopen.error)} />}
      </Form>
    </Modal>
  );
}
