import { BANK_LIMITS, type BankFolderNode } from '@examhall/contract';
import { Alert, Modal, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { folderOptions, moveTargets, type FolderOption } from './folderTree.js';
import { useUpdateFolder } from './queries.js';

/** Moves a folder under another one or to the top; targets that would make a loop are not offered. */
export function FolderMoveModal(props: {
  open: boolean;
  folder: BankFolderNode;
  list: BankFolderNode[];
  onClose: () => void;
}) {
  const { t } = useI18n();
  const update = useUpdateFolder();
  const [target, setTarget] = useState<number | null | undefined>(undefined);
  const targets = useMemo(
    () => moveTargets(props.list, props.folder.id, BANK_LIMITS.folderDepth - 1),
    [props.list, props.folder.id],
  );
  const treeData = useMemo((): FolderOption<number>[] => {
    const allowed = new Set(targets.map((f) => f.id));
    return [
      { value: -1, title: t('console.bank.topLevel'), disabled: props.folder.parent_id === null, children: [] },
      ...folderOptions(
        props.list,
        (f) => f.id,
        (f) => !allowed.has(f.id),
      ),
    ];
  }, [props.list, props.folder.parent_id, targets, t]);
  return (
    <Modal
      open={props.open}
      title={t('console.bank.moveTitle', { name: props.folder.name })}
      okText={t('console.bank.move')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ disabled: target === undefined, loading: update.isPending }}
      onOk={() =>
        update.mutate(
          { folder_id: props.folder.id, parent_id: target ?? null },
          {
            onSuccess: () => {
              setTarget(undefined);
              props.onClose();
            },
          },
        )
      }
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('console.bank.moveHint')}</Typography.Paragraph>
      <TreeSelect
        style={{ width: '100%' }}
        treeDefaultExpandAll
        value={target === null ? -1 : target}
        onChange={(v: number) => setTarget(v === -1 ? null : v)}
        treeData={treeData}
        aria-label={t('console.bank.moveTo')}
        placeholder={t('console.bank.moveTo')}
        data-testid="folder-move-target"
      />
      {update.isError && <Alert type="error" showIcon title={errorText(update.error)} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
