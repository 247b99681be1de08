import { ExamMode, EXAM_MINUTES_MAX, type ExamDefinition } from '@examhall/contract';
import { DatePicker, Input, Radio, Skeleton } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { lazy, Suspense } from 'react';
import { Html } from '../../../exam/questions/Html.js';
import { useI18n } from '../../../i18n/index.js';
import { fromPicker, toPicker } from '../shared/serverClock.js';
import { problemAt } from './draft.js';
import { Field, type PanelProps } from './fields.js';
import { modeKey } from './labels.js';

const RichTextEditor = lazy(() => import('../../../exam/questions/RichTextEditor.js'));

/** Name, instructions, mode, length and window of the exam. */
export function BasicsPanel({ editor, readOnly }: PanelProps) {
  const { t } = useI18n();
  const { draft, problems } = editor;
  const set = <K extends keyof ExamDefinition>(key: K, value: ExamDefinition[K]) =>
    editor.update((d) => ({ ...d, [key]: value }));
  return (
    <Form layout="vertical" disabled={readOnly} style={{ maxWidth: 760 }} data-testid="exam-basics">
      <Field label={t('console.exams.col.name')} problem={problemAt(problems, 'name')} htmlFor="exam-name" required>
        <Input
          id="exam-name"
          value={draft.name}
          maxLength={200}
          onChange={(e) => set('name', e.target.value)}
          data-testid="exam-name"
        />
      </Field>
      <Field label={t('console.exams.mode')} problem={problemAt(problems, 'mode')}>
        <Radio.Group
          value={draft.mode}
          onChange={(e) => set('mode', e.target.value as ExamDefinition['mode'])}
          options={[ExamMode.exam, ExamMode.simulate, ExamMode.longTime].map((m) => ({
            value: m,
            label: t(modeKey(m)),
          }))}
        />
      </Field>
      <Field
        label={t('console.exams.timeMinutes')}
        problem={problemAt(problems, 'time_minutes')}
        htmlFor="exam-time"
        extra={t('console.exams.timeHint')}
        required
      >
        <InputNumber
          id="exam-time"
          min={1}
          max={EXAM_MINUTES_MAX}
          precision={0}
          value={draft.time_minutes}
          onChange={(v) => set('time_minutes', v ?? 0)}
          suffix={t('console.exams.minutesUnit')}
          data-testid="exam-time"
        />
      </Field>
      <Field
        label={t('console.exams.window')}
        problem={problemAt(problems, 'end_at') ?? problemAt(problems, 'start_at')}
        extra={t('console.exams.windowHint')}
        required
      >
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          value={[toPicker(draft.start_at), toPicker(draft.end_at)]}
          onChange={(range) => {
            const start = fromPicker(range?.[0]);
            const end = fromPicker(range?.[1]);
            editor.update((d) => ({ ...d, start_at: start ?? d.start_at, end_at: end ?? d.end_at }));
          }}
          allowClear={false}
          aria-label={t('console.exams.window')}
          data-testid="exam-window"
        />
      </Field>
      <Field
        label={t('console.exams.description')}
        problem={problemAt(problems, 'description')}
        extra={t('console.exams.descriptionHint')}
      >
        {readOnly ? (
          <Html html={draft.description} />
        ) : (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
            <RichTextEditor
              key={editor.generation}
              initialHtml={draft.description}
              onChange={(html) => set('description', html)}
              onPasteBlocked={null}
              label={t('console.exams.description')}
            />
          </Suspense>
        )}
      </Field>
    </Form>
  );
}
