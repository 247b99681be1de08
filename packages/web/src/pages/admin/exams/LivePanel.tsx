import { api, EXAM_MINUTES_MAX, type EditorExamDetail } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Descriptions, Typography } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import { fromPicker, toPicker } from '../shared/serverClock.js';
import { liveChangeBody } from './draft.js';
import { examKey, useInvalidateExams } from './queries.js';

/**
 * What may change while the published exam runs, applied at once to it and to running attempts: the
 * closing time and the length. Anything else is a new version.
 */
export function LivePanel({ detail, readOnly }: { detail: EditorExamDetail; readOnly: boolean }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateExams();
  const live = detail.live;
  const [endAt, setEndAt] = useState<number | null>(live?.end_at ?? null);
  const [minutes, setMinutes] = useState<number | null>(live?.time_minutes ?? null);
  const change = useMutation({
    mutationFn: () => {
      const body =
        live && liveChangeBody(detail.id, live, { end_at: endAt ?? undefined, time_minutes: minutes ?? undefined });
      if (!body) throw new Error(t('console.exams.liveNothing'));
      return request(api.examEditorLiveChange, { body });
    },
    onSuccess: (res) => {
      void message.success(t('console.exams.liveDone', { n: res.attempts_moved }));
      void queryClient.invalidateQueries({ queryKey: examKey(detail.id) });
      invalidate();
    },
  });
  if (!live) return <Alert type="info" showIcon title={t('console.exams.liveNotPublished')} />;
  const unchanged =
    live && !liveChangeBody(detail.id, live, { end_at: endAt ?? undefined, time_minutes: minutes ?? undefined });
  const failure = change.isError ? errorWithDetail(change.error) : null;
  return (
    <div style={{ maxWidth: 640 }} data-testid="exam-live">
      <Typography.Paragraph type="secondary">{t('console.exams.liveHint')}</Typography.Paragraph>
      <Descriptions size="small" bordered column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('console.exams.liveEndNow')}>{serverTime(live.end_at)}</Descriptions.Item>
        <Descriptions.Item label={t('console.exams.liveTimeNow')}>
          {t('common.minutes', { n: live.time_minutes })}
        </Descriptions.Item>
      </Descriptions>
      <Form layout="vertical" disabled={readOnly} onFinish={() => change.mutate()}>
        <Form.Item label={t('console.exams.liveEnd')} htmlFor="live-end">
          <DatePicker
            id="live-end"
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={toPicker(endAt)}
            onChange={(d) => setEndAt(fromPicker(d))}
            data-testid="live-end"
          />
        </Form.Item>
        <Form.Item label={t('console.exams.liveTime')} htmlFor="live-time">
          <InputNumber
            id="live-time"
            min={1}
            max={EXAM_MINUTES_MAX}
            precision={0}
            value={minutes}
            onChange={setMinutes}
            suffix={t('console.exams.minutesUnit')}
            data-testid="live-time"
          />
        </Form.Item>
        {failure && (
          <Alert type="error" showIcon title={failure.text} description={failure.detail} style={{ marginBottom: 16 }} />
        )}
        <Button
          type="primary"
          htmlType="submit"
          disabled={unchanged}
          loading={change.isPending}
          data-testid="live-apply"
        >
          {t('console.exams.liveApply')}
        </Button>
      </Form>
    </div>
  );
}
