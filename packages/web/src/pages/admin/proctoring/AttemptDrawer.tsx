import {
  api,
  ExamPhase,
  FACE_IMG_MAX_BYTES,
  type FlagDecision,
  type IntegrityRecord,
  type ProctorAttemptData,
  type ProctorTile,
} from '@examhall/contract';
import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Image,
  Input,
  Modal,
  Space,
  Tag,
  Timeline,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { errorText, isApiError, request, upload } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/MaintenanceModal.js';
import { attemptKey, remaining } from './liveGrid.js';
import { categoryName, eventName, timeOfDay } from './labels.js';

/** One attempt: its timeline of risk events and evidence, warnings, and the proctor's actions. */
export function AttemptDrawer({
  attemptId,
  tile,
  now,
  onClose,
}: {
  attemptId: number | null;
  /** The live tile, fresher than the timeline's copy. */
  tile: ProctorTile | undefined;
  now: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const data = useQuery({
    queryKey: attemptKey(attemptId ?? 0),
    queryFn: ({ signal }) => request(api.proctorAttempt, { query: { attempt_id: attemptId ?? 0 }, signal }),
    enabled: attemptId !== null,
  });
  const shown = tile ?? data.data?.tile;
  return (
    <Drawer
      open={attemptId !== null}
      onClose={onClose}
      size={720}
      title={shown ? t('console.proctor.attemptTitle', { name: shown.name }) : t('common.loading')}
      destroyOnHidden
    >
      <div data-testid="proctor-attempt">
        {data.isError && <Alert type="error" showIcon title={t('common.loadFailed', { msg: data.error.message })} />}
        {data.data && shown && <AttemptBody data={data.data} tile={shown} now={now} />}
      </div>
    </Drawer>
  );
}

function AttemptBody({ data, tile, now }: { data: ProctorAttemptData; tile: ProctorTile; now: number }) {
  const { t } = useI18n();
  const me = useStaffMe();
  const open = tile.phase !== ExamPhase.submit;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('console.proctor.candidate')}>{tile.name}</Descriptions.Item>
        <Descriptions.Item label={t('console.proctor.phone')}>{tile.phone}</Descriptions.Item>
        <Descriptions.Item label={t('console.proctor.state')}>
          {tile.phase === ExamPhase.exam && tile.end_time !== null
            ? t('console.proctor.timeLeft', { time: remaining(tile.end_time, now) })
            : t(`console.proctor.phase.${tile.phase}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('console.proctor.presence')}>
          {tile.online ? t('console.proctor.online') : t('console.proctor.offline')}
          {tile.last_seen !== null && ` · ${t('console.proctor.lastSeen', { time: timeOfDay(tile.last_seen) })}`}
        </Descriptions.Item>
        {data.finish_reason && (
          <Descriptions.Item label={t('console.proctor.finishReason')} span={2}>
            <span data-testid="proctor-finish-reason">{finishText(t, data.finish_reason)}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      <IdPhoto
        examId={data.exam_id}
        attemptId={tile.attempt_id}
        url={data.id_photo_url}
        canSet={can(me.data, 'proctor.decide')}
      />
      {open && can(me.data, 'proctor.watch') && <WarnForm attemptId={tile.attempt_id} />}
      {open && can(me.data, 'proctor.decide') && <EndAttempt attemptId={tile.attempt_id} name={tile.name} />}
      <section aria-labelledby="proctor-warnings-title">
        <Typography.Title level={2} id="proctor-warnings-title" style={{ fontSize: 16 }}>
          {t('console.proctor.warningsSent')}
        </Typography.Title>
        {data.warnings.length === 0 ? (
          <Typography.Text type="secondary">{t('console.proctor.noWarnings')}</Typography.Text>
        ) : (
          <ul data-testid="proctor-warnings" style={{ paddingInlineStart: 20, margin: 0 }}>
            {data.warnings.map((w) => (
              <li key={w.id} data-testid={`proctor-warning-${w.id}`}>
                <Typography.Text type="secondary">{timeOfDay(w.time)}</Typography.Text> {w.text}{' '}
                {w.read_at !== null ? (
                  <Tag color="green" data-testid="warning-read">
                    {t('console.proctor.warningRead', { time: timeOfDay(w.read_at) })}
                  </Tag>
                ) : (
                  <Tag data-testid="warning-unread">{t('console.proctor.warningUnread')}</Tag>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="proctor-timeline-title">
        <Typography.Title level={2} id="proctor-timeline-title" style={{ fontSize: 16 }}>
          {t('console.proctor.timeline')}
        </Typography.Title>
        {data.records.length === 0 ? (
          <Empty description={t('console.proctor.noRecords')} />
        ) : (
          <div data-testid="proctor-timeline">
            <Image.PreviewGroup>
              <Timeline
                items={data.records.map((r) => ({
                  key: r.id,
                  color: r.kind === 'risk' ? (r.decision === 'dismissed' ? 'gray' : 'red') : 'blue',
                  content: <RecordItem record={r} canDecide={can(me.data, 'proctor.decide')} />,
                }))}
              />
            </Image.PreviewGroup>
          </div>
        )}
      </section>
    </Space>
  );
}

/** How an attempt ended, in words; a proctor's reason is shown as they wrote it. */
function finishText(t: ReturnType<typeof useI18n>['t'], reason: string): string {
  if (reason.startsWith('proctor: ')) return t('console.proctor.endedBy', { reason: reason.slice(9) });
  if (reason === 'submit' || reason === 'timeout' || reason === 'cuts' || reason === 'proctor') {
    return t(`console.proctor.finish.${reason}`);
  }
  return reason;
}

function RecordItem({ record: r, canDecide }: { record: IntegrityRecord; canDecide: boolean }) {
  const { t } = useI18n();
  const name = eventName(t, r);
  return (
    <div data-testid={`timeline-record-${r.id}`} style={{ display: 'grid', gap: 4 }}>
      <Space wrap>
        <Typography.Text type="secondary">{timeOfDay(r.trigger_time)}</Typography.Text>
        <Typography.Text strong>{name}</Typography.Text>
        {r.kind === 'risk' && <Tag>{categoryName(t, r.category)}</Tag>}
        {r.kind === 'risk' && <DecisionTag decision={r.decision} />}
      </Space>
      {r.detail && <Typography.Text type="secondary">{r.detail}</Typography.Text>}
      {r.image_url && (
        <Image
          src={r.image_url}
          width={160}
          alt={t('console.proctor.pictureAt', { event: name, time: serverTime(r.trigger_time) })}
          style={{ borderRadius: 4 }}
        />
      )}
      {r.kind === 'risk' && r.decision_note && (
        <Typography.Text italic>{t('console.proctor.note', { note: r.decision_note })}</Typography.Text>
      )}
      {r.kind === 'risk' && canDecide && <DecideForm record={r} />}
    </div>
  );
}

function DecisionTag({ decision }: { decision: FlagDecision | null }) {
  const { t } = useI18n();
  if (decision === 'confirmed') return <Tag color="red">{t('integrity.decision.confirmed')}</Tag>;
  if (decision === 'dismissed') return <Tag color="green">{t('integrity.decision.dismissed')}</Tag>;
  return <Tag color="orange">{t('integrity.decision.pending')}</Tag>;
}

/** Confirm or dismiss one flag with a note. A decision can be changed; the audit log keeps each one. */
function DecideForm({ record }: { record: IntegrityRecord }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [note, setNote] = useState(record.decision_note);
  const decide = useMutation({
    mutationFn: (decision: FlagDecision) =>
      request(api.proctorDecide, { body: { record_id: record.id, decision, note } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'proctor', 'attempt'] });
      void message.success(t('console.proctor.decided'));
    },
  });
  const noteId = `decide-note-${record.id}`;
  return (
    <Space wrap>
      <Input
        id={noteId}
        aria-label={t('console.proctor.noteLabel')}
        size="small"
        value={note}
        maxLength={1000}
        onChange={(e) => setNote(e.target.value)}
        placeholder={t('console.proctor.noteLabel')}
        style={{ width: 220 }}
        data-testid={`decide-note-${record.id}`}
      />
      <Button
        size="small"
        danger
        loading={decide.isPending && decide.variables === 'confirmed'}
        onClick={() => decide.mutate('confirmed')}
        data-testid={`decide-confirm-${record.id}`}
      >
        {t('console.proctor.confirm')}
      </Button>
      <Button
        size="small"
        loading={decide.isPending && decide.variables === 'dismissed'}
        onClick={() => decide.mutate('dismissed')}
        data-testid={`decide-dismiss-${record.id}`}
      >
        {t('console.proctor.dismiss')}
      </Button>
      {decide.isError && <Typography.Text type="danger">{decide.error.message}</Typography.Text>}
    </Space>
  );
}

/** The ID photo's size limit in MB, for the texts. */
const MAX_MB = FACE_IMG_MAX_BYTES / 1024 / 1024;

/**
 * The ID photo of the candidate's invitation, which face checks compare camera pictures with; a proctor who
 * decides on flags can upload or replace it (the server refuses one that does not show exactly one face).
 */
function IdPhoto(props: { examId: number; attemptId: number; url: string | null; canSet: boolean }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (file: File) =>
      upload(api.proctorIdPhoto, { exam_id: props.examId, attempt_id: props.attemptId, id_photo: file }),
    onMutate: () => setError(null),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: attemptKey(props.attemptId) });
      void message.success(t('console.proctor.idPhotoSaved'));
    },
    onError: (e) => {
      if (isApiError(e) && e.code === 'id_photo_no_single_face') setError(t('console.proctor.idPhotoNoFace'));
      else setError(errorText(e));
    },
  });
  const pick = (file: File) => {
    if (file.type !== 'image/jpeg' && file.type !== 'image/png') setError(t('console.proctor.idPhotoType'));
    else if (file.size > FACE_IMG_MAX_BYTES) setError(t('console.proctor.idPhotoTooLarge', { mb: MAX_MB }));
    else send.mutate(file);
    // The upload is ours (multipart with the exam and attempt): Upload only picks the file.
    return false;
  };
  return (
    <section aria-labelledby="proctor-id-photo-title" data-testid="proctor-id-photo">
      <Typography.Title level={2} id="proctor-id-photo-title" style={{ fontSize: 16 }}>
        {t('console.proctor.idPhoto')}
      </Typography.Title>
      <Space align="start" wrap>
        {props.url ? (
          <span data-testid="proctor-id-photo-image">
            <Image src={props.url} width={120} alt={t('console.proctor.idPhotoAlt')} style={{ borderRadius: 4 }} />
          </span>
        ) : (
          <Typography.Text type="secondary">{t('console.proctor.noIdPhoto')}</Typography.Text>
        )}
        {props.canSet && (
          <Space orientation="vertical" size={4}>
            <Upload accept="image/jpeg,image/png" showUploadList={false} maxCount={1} beforeUpload={pick}>
              <Button
                icon={<UploadOutlined aria-hidden />}
                loading={send.isPending}
                data-testid="proctor-id-photo-upload"
              >
                {props.url ? t('console.proctor.idPhotoReplace') : t('console.proctor.idPhotoUpload')}
              </Button>
            </Upload>
            <Typography.Text type="secondary">{t('console.proctor.idPhotoHint', { mb: MAX_MB })}</Typography.Text>
          </Space>
        )}
      </Space>
      {error && (
        <Typography.Paragraph type="danger" role="alert" data-testid="proctor-id-photo-error" style={{ marginTop: 8 }}>
          {error}
        </Typography.Paragraph>
      )}
    </section>
  );
}

/** A warning the candidate sees at once. */
function WarnForm({ attemptId }: { attemptId: number }) {
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

/** Ends the attempt after a confirmation that asks for the reason (kept in the audit log, shown to the candidate). */
function EndAttempt({ attemptId, name }: { attemptId: number; name: string }) {
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
