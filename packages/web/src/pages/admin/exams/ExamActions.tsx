import { CreateExamBody, type ExamStatus } from '@examhall/contract';
import { App, Button, Input, Modal, Popconfirm, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useNavigate } from 'react-router';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';
import { useArchiveExam, useCopyExam } from './queries.js';

/** Copies an exam's draft into a new exam, named as the author likes. */
export function CopyExamModal({ exam, onClose }: { exam: { id: number; name: string } | null; onClose: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const copy = useCopyExam();
  return (
    <Modal
      open={exam !== null}
      title={t('console.exams.copyTitle', { name: exam?.name ?? '' })}
      okText={t('console.exams.copy')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ loading: copy.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: exam ? t('console.exams.copyName', { name: exam.name }) : '' }}
        onFinish={(v) =>
          exam &&
          copy.mutate(
            { exam_id: exam.id, name: v.name.trim() },
            {
              onSuccess: ({ exam_id }) => {
                void message.success(t('console.exams.copied'));
                onClose();
                void navigate(`/admin/exams/${exam_id}`);
              },
            },
          )
        }
      >
        <Form.Item
          name="name"
          label={t('console.exams.col.name')}
          rules={[zodRule(CreateExamBody.shape.name, t('console.exams.nameRule'))]}
        >
          <Input autoFocus maxLength={200} data-testid="exam-copy-name" />
        </Form.Item>
        <Typography.Paragraph type="secondary">{t('console.exams.copyHint')}</Typography.Paragraph>
        {copy.isError && <FormError error={errorText(copy.error)} testId="exam-copy-error" />}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

/** Archives an exam (it leaves the candidates' lists and the default view) or brings it back. */
export function ArchiveButton({
  exam,
  size = 'small',
}: {
  exam: { id: number; name: string; status: ExamStatus };
  size?: 'small' | 'middle';
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const archive = useArchiveExam();
  const archived = exam.status === 'archived';
  const run = () =>
    archive.mutate(
      { exam_id: exam.id, archived: !archived },
      {
        onSuccess: () =>
          void message.success(t(archived ? 'console.exams.restored' : 'console.exams.archived', { name: exam.name })),
        onError: (e) => void message.error(errorText(e)),
      },
    );
  if (archived) {
    return (
      <Button size={size} type={size === 'small' ? 'link' : 'default'} loading={archive.isPending} onClick={run}>
        {t('console.exams.restore')}
      </Button>
    );
  }
  return (
    <Popconfirm
      title={t('console.exams.archiveTitle', { name: exam.name })}
      description={t('console.exams.archiveBody')}
      okText={t('console.exams.archive')}
      cancelText={t('console.common.cancel')}
      onConfirm={run}
    >
      <Button
        size={size}
        type={size === 'small' ? 'link' : 'default'}
        loading={archive.isPending}
        data-testid={`exam-archive-${exam.id}`}
      >
        {t('console.exams.archive')}
      </Button>
    </Popconfirm>
  );
}
