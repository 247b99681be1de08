import { api, type CandidateSlot } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Modal, Radio, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { serverNow } from '../../../exam/clock.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';

/** A button that opens the exam's slots (seats left each) and chooses or changes the candidate's own. */
export function SlotPicker({ examId, hasSlot }: { examId: number; hasSlot: boolean }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="slot-pick">
        {hasSlot ? t('exams.slot.change') : t('exams.slot.choose')}
      </Button>
      {open && <SlotModal examId={examId} onClose={() => setOpen(false)} />}
    </>
  );
}

function SlotModal({ examId, onClose }: { examId: number; onClose: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = { exam_id: examId };
  const slots = useQuery({
    queryKey: queryKey(api.candidateSlots, query),
    queryFn: ({ signal }) => request(api.candidateSlots, { query, signal }),
  });
  const [picked, setPicked] = useState<number | null>(null);
  const choose = useMutation({
    mutationFn: (slotId: number) =>
      request(api.candidateChooseSlot, { body: { exam_id: examId, slot_id: slotId, client_id: crypto.randomUUID() } }),
    onSuccess: (res) => {
      void message.success(t('exams.slot.done', { label: res.slot.label || serverTime(res.slot.start_at) }));
      void queryClient.invalidateQueries({ queryKey: queryKey(api.candidateSlots) });
      void queryClient.invalidateQueries({ queryKey: ['exams', 'index'] });
      onClose();
    },
    // Someone took the last seat meanwhile: show the seats as they are now.
    onError: () => void slots.refetch(),
  });
  const selected = picked ?? slots.data?.slot_id ?? null;
  return (
    <Modal
      open
      title={t('exams.slot.title')}
      onCancel={onClose}
      okText={t('exams.slot.choose')}
      okButtonProps={{ disabled: selected === null || selected === slots.data?.slot_id, loading: choose.isPending }}
      onOk={() => selected !== null && choose.mutate(selected)}
    >
      <Typography.Paragraph type="secondary">{t('exams.slot.hint')}</Typography.Paragraph>
      {slots.isPending && <Skeleton active />}
      {slots.isError && <Alert type="error" showIcon title={errorText(slots.error)} />}
      {choose.isError && <Alert type="error" showIcon title={errorText(choose.error)} style={{ marginBottom: 12 }} />}
      {slots.data && slots.data.list.length === 0 && <Empty description={t('exams.slot.empty')} />}
      {slots.data && slots.data.list.length > 0 && (
        <Radio.Group value={selected} onChange={(e) => setPicked(e.target.value as number)}>
          <Space orientation="vertical">
            {slots.data.list.map((s) => (
              <SlotOption key={s.id} slot={s} mine={s.id === slots.data.slot_id} />
            ))}
          </Space>
        </Radio.Group>
      )}
    </Modal>
  );
}

function SlotOption({ slot, mine }: { slot: CandidateSlot; mine: boolean }) {
  const { t } = useI18n();
  const started = serverNow() >= slot.start_at;
  const full = slot.seats_left === 0 && !mine;
  const state = mine
    ? t('exams.slot.current')
    : started
      ? t('exams.slot.started')
      : full
        ? t('exams.slot.full')
        : t('exams.slot.seatsLeft', { n: slot.seats_left });
  return (
    <Radio value={slot.id} disabled={started || full} data-testid="slot-option" data-slot={slot.id}>
      {slot.label && <strong>{slot.label} · </strong>}
      {t('exams.windowRange', { from: serverTime(slot.start_at), to: serverTime(slot.end_at) })}{' '}
      <Typography.Text type="secondary">({state})</Typography.Text>
    </Radio>
  );
}
