import type { BankFolderNode } from '@examhall/contract';
import { App, Button, Popconfirm, Tooltip } from 'antd';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { useDeleteFolder, useFolders } from './queries.js';

/** Deletes an empty folder; one with questions or sub-folders says what to do first. */
export function DeleteFolder({ folder, onDeleted }: { folder: BankFolderNode; onDeleted: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const del = useDeleteFolder();
  const folders = useFolders();
  const hasChildren = (folders.data?.list ?? []).some((f) => f.parent_id === folder.id);
  const empty = folder.total_count === 0 && !hasChildren;
  if (!empty) {
    return (
      <Tooltip title={t('console.bank.deleteNotEmpty')}>
        <Button size="small" danger disabled data-testid="folder-delete">
          {t('console.bank.delete')}
        </Button>
      </Tooltip>
    );
  }
  return (
    <Popconfirm
      title={t('console.bank.deleteFolderTitle', { name: folder.name })}
      okText={t('console.bank.delete')}
      okButtonProps={{ danger: true }}
      cancelText={t('console.common.cancel')}
      onConfirm={() =>
        del.mutate(folder.id, {
          onSuccess: () => {
            void message.success(t('console.bank.folderDeleted', { name: folder.name }));
            onDeleted();
          },
          onError: (e) => void message.error(errorText(e)),
        })
      }
    >
      <Button size="small" danger loading={del.isPending} data-testid="folder-delete">
        {t('console.bank.delete')}
      </Button>
    </Popconfirm>
  );
}
