import { UploadOutlined } from '@ant-design/icons';
import { api, MONITOR_STEPS, type ExamDefinition, type ExamSettingsDef } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Col, Input, Row, Segmented, Space, Typography, Upload } from 'antd';
import { SebCard } from './SebCard.js';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { errorText, upload } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { checkState, flag, problemAt, withCheckState, type CheckState } from './draft.js';
import { Field, Toggle, type PanelProps } from './fields.js';

/** The device checks a candidate goes through, each required, skippable or removed. */
const CHECKS = MONITOR_STEPS.filter((s) => s.skipFlag !== null && s.closeFlag !== null).map((s) => ({
  key: s.key,
  flags: { skip: s.skipFlag!, close: s.closeFlag! },
}));

/**
 * Every per-exam rule: shuffling, paste/copy/upload, screen switches, captures, device checks, ID photo, Safe Exam
 * Browser, logo.
 */
export function SettingsPanel({ editor, readOnly, examId }: PanelProps & { examId: number }) {
  const { t } = useI18n();
  const { draft, problems } = editor;
  const s = draft.settings;
  const setTop = <K extends keyof ExamDefinition>(key: K, value: ExamDefinition[K]) =>
    editor.update((d) => ({ ...d, [key]: value }));
  const setSetting = <K extends keyof ExamSettingsDef>(key: K, value: ExamSettingsDef[K]) =>
    editor.update((d) => ({ ...d, settings: { ...d.settings, [key]: value } }));
  const sp = (key: string) => problemAt(problems, `settings.${key}`);

  return (
    <Form layout="vertical" disabled={readOnly} data-testid="exam-settings">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('console.exams.set.answering')}</h3>}>
            <Toggle
              label={t('console.exams.set.shuffleQuestions')}
              hint={t('console.exams.set.shuffleQuestionsHint')}
              checked={draft.shuffle_questions}
              onChange={(v) => setTop('shuffle_questions', v)}
              testId="set-shuffle-questions"
            />
            <Toggle
              label={t('console.exams.set.shuffleOptions')}
              hint={t('console.exams.set.shuffleOptionsHint')}
              checked={draft.shuffle_options}
              onChange={(v) => setTop('shuffle_options', v)}
              testId="set-shuffle-options"
            />
            <Toggle
              label={t('console.exams.set.paste')}
              hint={t('console.exams.set.pasteHint')}
              checked={s.is_paste === 1}
              onChange={(v) => setSetting('is_paste', flag(v))}
              testId="set-paste"
            />
            <Toggle
              label={t('console.exams.set.copy')}
              hint={t('console.exams.set.copyHint')}
              checked={s.is_copy_question === 1}
              onChange={(v) => setSetting('is_copy_question', flag(v))}
              testId="set-copy"
            />
            <Toggle
              label={t('console.exams.set.upload')}
              hint={t('console.exams.set.uploadHint')}
              checked={s.is_upload_file === 1}
              onChange={(v) => setSetting('is_upload_file', flag(v))}
              testId="set-upload"
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('console.exams.set.proctoring')}</h3>}>
            <Field
              label={t('console.exams.set.cuttingTimes')}
              problem={sp('cutting_times')}
              htmlFor="set-cutting-times"
              extra={t('console.exams.set.cuttingTimesHint')}
            >
              <InputNumber
                id="set-cutting-times"
                min={0}
                max={1000}
                precision={0}
                value={s.cutting_times}
                onChange={(v) => setSetting('cutting_times', v ?? 0)}
                data-testid="set-cutting-times"
              />
            </Field>
            <Field
              label={t('console.exams.set.captureInterval')}
              problem={sp('capture_interval')}
              htmlFor="set-capture-interval"
              extra={t('console.exams.set.captureIntervalHint')}
            >
              <InputNumber
                id="set-capture-interval"
                min={5}
                max={600}
                precision={0}
                value={s.capture_interval}
                onChange={(v) => setSetting('capture_interval', v ?? 30)}
                suffix={t('console.exams.secondsUnit')}
                data-testid="set-capture-interval"
              />
            </Field>
            <Typography.Paragraph strong style={{ marginBottom: 8 }}>
              {t('console.exams.set.checks')}
            </Typography.Paragraph>
            <Space orientation="vertical" style={{ width: '100%' }}>
              {CHECKS.map((c) => (
                <Space key={c.key} wrap style={{ justifyContent: 'space-between', width: '100%' }}>
                  <span id={`check-${c.key}`}>{t(`console.exams.set.check.${c.key}`)}</span>
                  <Segmented<CheckState>
                    aria-labelledby={`check-${c.key}`}
                    disabled={readOnly}
                    value={checkState(s, c.flags)}
                    onChange={(state) =>
                      editor.update((d) => ({ ...d, settings: withCheckState(d.settings, c.flags, state) }))
                    }
                    options={(['required', 'skippable', 'off'] as const).map((v) => ({
                      value: v,
                      label: t(`console.exams.set.checkState.${v}`),
                    }))}
                    data-testid={`set-check-${c.key}`}
                  />
                </Space>
              ))}
            </Space>
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {t('console.exams.set.checksHint')}
            </Typography.Paragraph>
            <Toggle
              label={t('console.exams.set.secondScreen')}
              hint={t('console.exams.set.secondScreenHint')}
              checked={s.is_second_screen === 1}
              onChange={(v) => setSetting('is_second_screen', flag(v))}
              testId="set-second-screen"
            />
            <Toggle
              label={t('console.exams.set.idPhoto')}
              hint={t('console.exams.set.idPhotoHint')}
              checked={draft.id_photo_required}
              onChange={(v) => setTop('id_photo_required', v)}
              testId="set-id-photo"
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <SebCard editor={editor} examId={examId} />
        </Col>
        <Col xs={24} xl={12}>
          <LogoCard editor={editor} readOnly={readOnly} />
        </Col>
      </Row>
    </Form>
  );
}

/** The logo on the candidate pages: shown or hidden, and which picture. */
function LogoCard({ editor, readOnly }: PanelProps) {
  const { t } = useI18n();
  const me = useStaffMe();
  const s = editor.draft.settings;
  const set = <K extends keyof ExamSettingsDef>(key: K, value: ExamSettingsDef[K]) =>
    editor.update((d) => ({ ...d, settings: { ...d.settings, [key]: value } }));
  const send = useMutation({
    mutationFn: (file: File) => upload(api.bankUploadImage, { file }),
    onSuccess: (img) => set('systemLogoPath', img.url),
  });
  return (
    <Card size="small" title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('console.exams.set.logo')}</h3>}>
      <Toggle
        label={t('console.exams.set.showLogo')}
        hint={t('console.exams.set.showLogoHint')}
        checked={s.is_enterprise_logo === 1}
        onChange={(v) => set('is_enterprise_logo', flag(v))}
        testId="set-logo"
      />
      <Field
        label={t('console.exams.set.logoPath')}
        problem={problemAt(editor.problems, 'settings.systemLogoPath')}
        htmlFor="set-logo-path"
      >
        <Space.Compact style={{ width: '100%' }}>
          <Input
            id="set-logo-path"
            value={s.systemLogoPath}
            maxLength={500}
            onChange={(e) => set('systemLogoPath', e.target.value)}
          />
          {can(me.data, 'bank.manage') && !readOnly && (
            <Upload
              accept="image/png,image/jpeg,image/gif,image/webp"
              showUploadList={false}
              beforeUpload={(file) => {
                send.mutate(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined aria-hidden />} loading={send.isPending}>
                {t('console.exams.set.uploadLogo')}
              </Button>
            </Upload>
          )}
        </Space.Compact>
      </Field>
      {send.isError && <Typography.Text type="danger">{errorText(send.error)}</Typography.Text>}
      {s.systemLogoPath && (
        <img
          src={s.systemLogoPath}
          alt={t('console.exams.set.logoPreview')}
          style={{ maxHeight: 48, maxWidth: 200, marginBottom: 12 }}
        />
      )}
      <Field
        label={t('console.exams.set.icoName')}
        problem={problemAt(editor.problems, 'settings.ico_name')}
        htmlFor="set-ico"
      >
        <Input id="set-ico" value={s.ico_name} maxLength={200} onChange={(e) => set('ico_name', e.target.value)} />
      </Field>
    </Card>
  );
}
