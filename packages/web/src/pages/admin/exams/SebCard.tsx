import { DownloadOutlined } from '@ant-design/icons';
import { api } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Input, Typography } from 'antd';
import { errorText, request, saveFile } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { problemAt } from './draft.js';
import { Field, Toggle, type PanelProps } from './fields.js';

/**
 * Safe Exam Browser: whether the exam requires it, the config key its requests must prove (empty: the key of the
 * settings file offered here) and browser exam keys, and the settings file (.seb) to send candidates.
 */
export function SebCard({ editor, examId }: Pick<PanelProps, 'editor'> & { examId: number }) {
  const { t } = useI18n();
  const seb = editor.draft.seb;
  const set = (change: Partial<typeof seb>) => editor.update((d) => ({ ...d, seb: { ...d.seb, ...change } }));
  const file = useMutation({
    mutationFn: () => request(api.examEditorSebSettings, { query: { exam_id: examId } }),
    onSuccess: (data) =>
      saveFile({ blob: new Blob([data.content], { type: 'application/seb' }), fileName: data.file_name }),
  });
  const keyProblem = problemAt(editor.problems, 'seb.config_key');
  const examKeysProblem = problemAt(editor.problems, 'seb.browser_exam_keys');
  return (
    <Card size="small" title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('console.exams.seb.title')}</h3>}>
      <Toggle
        label={t('console.exams.seb.required')}
        hint={t('console.exams.seb.requiredHint')}
        checked={seb.required}
        onChange={(v) => set({ required: v })}
        testId="set-seb"
      />
      <Field
        label={t('console.exams.seb.configKey')}
        problem={keyProblem}
        htmlFor="set-seb-config-key"
        extra={t('console.exams.seb.configKeyHint')}
      >
        <Input
          id="set-seb-config-key"
          value={seb.config_key}
          maxLength={64}
          spellCheck={false}
          placeholder={t('console.exams.seb.configKeyPlaceholder')}
          onChange={(e) => set({ config_key: e.target.value.trim() })}
          data-testid="set-seb-config-key"
        />
      </Field>
      <Field
        label={t('console.exams.seb.examKeys')}
        problem={examKeysProblem}
        htmlFor="set-seb-exam-keys"
        extra={t('console.exams.seb.examKeysHint')}
      >
        <Input.TextArea
          id="set-seb-exam-keys"
          rows={2}
          spellCheck={false}
          value={seb.browser_exam_keys.join('\n')}
          onChange={(e) =>
            set({
              browser_exam_keys: e.target.value
                .split(/\s+/)
                .map((k) => k.trim())
                .filter(Boolean),
            })
          }
          data-testid="set-seb-exam-keys"
        />
      </Field>
      <Button
        icon={<DownloadOutlined aria-hidden />}
        loading={file.isPending}
        onClick={() => file.mutate()}
        data-testid="seb-download"
      >
        {t('console.exams.seb.download')}
      </Button>
      {file.data && (
        <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }} data-testid="seb-file-key">
          {t('console.exams.seb.fileKey')}{' '}
          <Typography.Text code copyable>
            {file.data.config_key}
          </Typography.Text>
        </Typography.Paragraph>
      )}
      {file.isError && <Typography.Text type="danger">{errorText(file.error)}</Typography.Text>}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('console.exams.seb.fileHint')}
      </Typography.Paragraph>
    </Card>
  );
}
