import { BANK_LIMITS, BankFolderName, type BankFolderNode } from '@examhall/contract';
import { Alert, App, Input, Modal } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { useStaffMe } from '../../../session/staff.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';
import { TeamSelect } from '../staff/TeamSelect.js';
import { useCreateFolder, useUpdateFolder } from './queries.js';

/** Creates a folder (under the selected one, or at the top) or renames the selected one. */
export function FolderNameModal(props: {
  open: boolean;
  mode: 'create' | 'rename';
  parent: BankFolderNode | null;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const me = useStaffMe();
  const [form] = Form.useForm<{ name: string; team_id: number | null }>();
  const [error, setError] = useState<string | null>(null);
  const create = useCreateFolder();
  const update = useUpdateFolder();
  const renaming = props.mode === 'rename' && props.parent !== null;
  // An admin names the team of a top folder; a sub-folder is its parent's team's, an author's their own.
  const chooseTeam = !renaming && props.parent === null && me.data?.role === 'admin';
  const tooDeep = !renaming && props.parent !== null && props.parent.depth + 1 >= BANK_LIMITS.folderDepth;

  const submit = (v: { name: string; team_id: number | null }) => {
    const done = () => {
      props.onClose();
      setError(null);
    };
    if (renaming && props.parent) {
      update.mutate(
        { folder_id: props.parent.id, name: v.name.trim() },
        { onSuccess: done, onError: (e) => setError(errorText(e)) },
      );
    } else {
      create.mutate(
        { name: v.name.trim(), parent_id: props.parent?.id ?? null, ...(chooseTeam ? { team_id: v.team_id } : {}) },
        {
          onSuccess: (folder) => {
            void message.success(t('console.bank.folderCreated', { name: folder.name }));
            props.onCreated(folder.id);
            done();
          },
          onError: (e) => setError(errorText(e)),
        },
      );
    }
  };

  const title = renaming
    ? t('console.bank.renameTitle', { name: props.parent?.name ?? '' })
    : props.parent
      ? t('console.bank.newSubFolderIn', { name: props.parent.name })
      : t('console.bank.newFolder');
  return (
    <Modal
      open={props.open}
      title={title}
      okText={renaming ? t('console.common.save') : t('console.bank.create')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ loading: create.isPending || update.isPending, disabled: tooDeep }}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      {tooDeep ? (
        <Alert type="warning" showIcon title={t('console.bank.tooDeep', { n: BANK_LIMITS.folderDepth })} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ name: renaming ? props.parent?.name : '', team_id: me.data?.team_id ?? null }}
          onFinish={submit}
          onValuesChange={() => setError(null)}
        >
          <Form.Item
            name="name"
            label={t('console.bank.folderName')}
            rules={[zodRule(BankFolderName, t('console.bank.folderNameRule', { n: BANK_LIMITS.folderName }))]}
          >
            <Input autoFocus maxLength={BANK_LIMITS.folderName} data-testid="folder-name" />
          </Form.Item>
          {chooseTeam && (
            <Form.Item name="team_id" label={t('console.staff.col.team')} extra={t('console.bank.folderTeamHint')}>
              <TeamSelect testId="folder-team" />
            </Form.Item>
          )}
          <FormError error={error} testId="folder-error" />
          <button type="submit" hidden />
        </Form>
      )}
    </Modal>
  );
}
