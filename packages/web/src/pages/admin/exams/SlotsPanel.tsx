import { api, SLOT_CAPACITY_MAX, type SlotListData, type SlotView } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Empty,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { fromPicker, toPicker } from '../shared/serverClock.js';
import { useRefreshSchedule } from './scheduleQueries.js';

/** The slot mode and the exam's slots: add, edit, delete. */
export function SlotsPanel({ examId, data, readOnly }: { examId: number; data: SlotListData; readOnly: boolean }) {
  const { t } = useI18n();
  const refresh = useRefreshSchedule();
  const [editing, setEditing] = useState<SlotView | 'new' | null>(null);
  const mode = useMutation({
    mutationFn: (slot_mode: 'assigned' | 'chosen') =>
      request(api.scheduleSlotMode, { body: { exam_id: examId, slot_mode } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (slotId: number) => request(api.scheduleSlotDelete, { body: { exam_id: examId, slot_id: slotId } }),
    onSuccess: refresh,
  });
  const columns: TableColumnsType<SlotView> = [
    { title: t('console.schedule.col.label'), dataIndex: 'label' },
    {
      title: t('console.schedule.col.time'),
      key: 'time',
      render: (_, s) => t('exams.windowRange', { from: serverTime(s.start_at), to: serverTime(s.end_at) }),
    },
    { title: t('console.schedule.col.seats'), key: 'seats', render: (_, s) => `${s.taken}/${s.capacity}` },
  ];
  if (!readOnly) {
    columns.push({
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, s) => (
        <Space>
          <Button size="small" onClick={() => setEditing(s)}>
            {t('console.common.edit')}
          </Button>
          <Popconfirm
            title={t('console.schedule.deleteTitle', { label: s.label || serverTime(s.start_at) })}
            okText={t('console.schedule.delete')}
            cancelText={t('console.common.cancel')}
            onConfirm={() => remove.mutate(s.id)}
          >
            <Button size="small" danger>
              {t('console.schedule.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }
  const failure = mode.error ?? remove.error;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="schedule-slots">
      <Typography.Paragraph type="secondary">{t('console.schedule.hint')}</Typography.Paragraph>
      <Space wrap>
        <Typography.Text strong>{t('console.schedule.mode')}</Typography.Text>
        <Radio.Group
          disabled={readOnly}
          value={data.slot_mode}
          onChange={(e) => mode.mutate(e.target.value as 'assigned' | 'chosen')}
          options={[
            { value: 'assigned', label: t('console.schedule.mode.assigned') },
            { value: 'chosen', label: t('console.schedule.mode.chosen') },
          ]}
        />
      </Space>
      {failure && <Alert type="error" showIcon title={errorText(failure)} />}
      <Table
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={data.list}
        pagination={false}
        locale={{ emptyText: <Empty description={t('console.schedule.noSlots')} /> }}
      />
      {!readOnly && (
        <Button onClick={() => setEditing('new')} data-testid="slot-add">
          {t('console.schedule.addSlot')}
        </Button>
      )}
      {editing && (
        <SlotModal
          examId={examId}
          window={data}
          slot={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Space>
  );
}

interface SlotForm {
  label: string;
  range: [Dayjs | null, Dayjs | null] | null;
  capacity: number | null;
}

/** Creates or edits a slot; the range is checked against the exam's window as it is picked. */
function SlotModal({
  examId,
  window,
  slot,
  onClose,
}: {
  examId: number;
  window: { start_at: number; end_at: number };
  slot: SlotView | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const refresh = useRefreshSchedule();
  const [form] = Form.useForm<SlotForm>();
  const save = useMutation({
    mutationFn: (v: SlotForm) => {
      const fields = {
        exam_id: examId,
        label: v.label ?? '',
        start_at: fromPicker(v.range?.[0])!,
        end_at: fromPicker(v.range?.[1])!,
        capacity: v.capacity ?? 1,
      };
      return slot
        ? request(api.scheduleSlotUpdate, { body: { ...fields, slot_id: slot.id } })
        : request(api.scheduleSlotCreate, { body: fields });
    },
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  const checkRange = (_: unknown, value: SlotForm['range']) => {
    const start = fromPicker(value?.[0]);
    const end = fromPicker(value?.[1]);
    if (start === null || end === null) return Promise.reject(new Error(t('console.schedule.rangeRequired')));
    if (end <= start) return Promise.reject(new Error(t('console.schedule.rangeOrder')));
    if (start < window.start_at || end > window.end_at) {
      const from = serverTime(window.start_at);
      return Promise.reject(new Error(t('console.schedule.rangeInside', { from, to: serverTime(window.end_at) })));
    }
    return Promise.resolve();
  };
  return (
    <Modal
      open
      title={slot ? t('console.schedule.editSlot') : t('console.schedule.addSlot')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending }}
      cancelText={t('console.common.cancel')}
      okText={t('console.common.save')}
    >
      <Form<SlotForm>
        form={form}
        layout="vertical"
        initialValues={{
          label: slot?.label ?? '',
          range: slot ? [toPicker(slot.start_at), toPicker(slot.end_at)] : null,
          capacity: slot?.capacity ?? 30,
        }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="label" label={t('console.schedule.label')} rules={[{ max: 60 }]}>
          <Input maxLength={60} data-testid="slot-label" />
        </Form.Item>
        <Form.Item name="range" label={t('console.schedule.range')} rules={[{ validator: checkRange }]}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
        </Form.Item>
        <Form.Item
          name="capacity"
          label={t('console.schedule.capacity')}
          rules={[{ required: true, type: 'integer', min: slot?.taken || 1, max: SLOT_CAPACITY_MAX }]}
        >
          <InputNumber min={1} max={SLOT_CAPACITY_MAX} precision={0} data-testid="slot-capacity" />
        </Form.Item>
        {save.isError && <Alert type="error" showIcon title={errorText(save.error)} />}
      </Form>
    </Modal>
  );
}
