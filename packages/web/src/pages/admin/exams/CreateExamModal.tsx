import { CreateExamBody } from '@examhall/contract';
import { Input, Modal, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { useStaffMe } from '../../../session/staff.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';
import { TeamSelect } from '../staff/TeamSelect.js';
import { useCreateExam } from './queries.js';

/** Creates an exam by name (an admin also picks its team) and opens it in the editor. */
export function CreateExamModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const me = useStaffMe();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ name: string; team_id: number | null }>();
  const [error, setError] = useState<string | null>(null);
  const create = useCreateExam();
  const admin = me.data?.role === 'admin';
  return (
    <Modal
      open={open}
      title={t('console.exams.new')}
      okText={t('console.exams.create')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ loading: create.isPending, 'data-testid': 'exam-create-submit' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: '', team_id: me.data?.team_id ?? null }}
        onValuesChange={() => setError(null)}
        onFinish={(v) =>
          create.mutate(
            { name: v.name.trim(), ...(admin ? { team_id: v.team_id } : {}) },
            {
              onSuccess: ({ exam_id }) => {
                onClose();
                void navigate(`/admin/exams/${exam_id}`);
              },
              onError: (e) => setError(errorText(e)),
            },
          )
        }
      >
        <Form.Item
          name="name"
          label={t('console.exams.col.name')}
          rules={[zodRule(CreateExamBody.shape.name, t('console.exams.nameRule'))]}
        >
          <Input autoFocus maxLength={200} data-testid="exam-create-name" />
        </Form.Item>
        {admin && (
          <Form.Item name="team_id" label={t('console.staff.col.team')} extra={t('console.exams.teamHint')}>
            <TeamSelect testId="exam-create-team" />
          </Form.Item>
        )}
        <Typography.Paragraph type="secondary">{t('console.exams.createHint')}</Typography.Paragraph>
        <FormError error={error} testId="exam-create-error" />
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
