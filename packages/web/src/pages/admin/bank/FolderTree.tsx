import { FolderAddOutlined, FolderOutlined } from '@ant-design/icons';
import { Button, Card, Space, Spin, Tooltip, Tree, Typography, type TreeDataNode } from 'antd';
import { useMemo, useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { LoadError } from '../shared/PageTitle.js';
import type { FolderScope } from './bankQuery.js';
import { DeleteFolder } from './DeleteFolder.js';
import { FolderMoveModal } from './FolderMoveModal.js';
import { FolderNameModal } from './FolderNameModal.js';
import { buildTree, type FolderBranch } from './folderTree.js';
import { useFolders } from './queries.js';

/** The folder tree: picks the list's folder, and creates, renames, moves and deletes folders. */
export function FolderTree({ scope, onScope }: { scope: FolderScope; onScope: (scope: FolderScope) => void }) {
  const { t } = useI18n();
  const me = useStaffMe();
  const folders = useFolders();
  const list = useMemo(() => folders.data?.list ?? [], [folders.data]);
  const manage = can(me.data, 'bank.manage');
  const [dialog, setDialog] = useState<'create' | 'rename' | 'move' | null>(null);
  const selected = typeof scope === 'number' ? list.find((f) => f.id === scope) : undefined;

  const treeData: TreeDataNode[] = useMemo(() => {
    const toNode = (b: FolderBranch): TreeDataNode => ({
      key: `f:${b.folder.id}`,
      title: <FolderTitle name={b.folder.name} count={b.folder.total_count} />,
      icon: <FolderOutlined aria-hidden />,
      children: b.children.map(toNode),
    });
    return [
      { key: 'all', title: <FolderTitle name={t('console.bank.allQuestions')} count={null} />, isLeaf: true },
      {
        key: 'unfiled',
        title: <FolderTitle name={t('console.bank.unfiled')} count={folders.data?.unfiled_count ?? null} />,
        isLeaf: true,
      },
      ...buildTree(list).map(toNode),
    ];
  }, [list, folders.data, t]);

  const selectedKey = typeof scope === 'number' ? `f:${scope}` : scope;
  return (
    <Card
      size="small"
      title={<h2 style={{ fontSize: 15, margin: 0 }}>{t('console.bank.folders')}</h2>}
      data-testid="bank-folders"
      extra={
        manage && (
          <Tooltip title={selected ? t('console.bank.newSubFolder') : t('console.bank.newFolder')}>
            <Button
              size="small"
              icon={<FolderAddOutlined aria-hidden />}
              aria-label={selected ? t('console.bank.newSubFolder') : t('console.bank.newFolder')}
              onClick={() => setDialog('create')}
              data-testid="folder-new"
            />
          </Tooltip>
        )
      }
    >
      <LoadError error={folders.error} />
      {folders.isPending ? (
        <Spin />
      ) : (
        <Tree
          blockNode
          showIcon={false}
          defaultExpandAll
          treeData={treeData}
          selectedKeys={[selectedKey]}
          onSelect={(keys) => {
            const key = String(keys[0] ?? selectedKey);
            onScope(key === 'all' || key === 'unfiled' ? key : Number(key.slice(2)));
          }}
          aria-label={t('console.bank.folders')}
        />
      )}
      {!folders.isPending && list.length === 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {manage ? t('console.bank.noFoldersManage') : t('console.bank.noFolders')}
        </Typography.Paragraph>
      )}
      {manage && selected && (
        <Space wrap size={4} style={{ marginTop: 12 }}>
          <Button size="small" onClick={() => setDialog('rename')} data-testid="folder-rename">
            {t('console.bank.rename')}
          </Button>
          <Button size="small" onClick={() => setDialog('move')} data-testid="folder-move">
            {t('console.bank.move')}
          </Button>
          <DeleteFolder folder={selected} onDeleted={() => onScope('all')} />
        </Space>
      )}
      <FolderNameModal
        open={dialog === 'create' || dialog === 'rename'}
        mode={dialog === 'rename' ? 'rename' : 'create'}
        parent={selected ?? null}
        onClose={() => setDialog(null)}
        onCreated={(id) => onScope(id)}
      />
      {selected && (
        <FolderMoveModal open={dialog === 'move'} folder={selected} list={list} onClose={() => setDialog(null)} />
      )}
    </Card>
  );
}

function FolderTitle({ name, count }: { name: string; count: number | null }) {
  return (
    <span style={{ display: 'inline-flex', gap: 6, width: '100%', justifyContent: 'space-between' }}>
      {/* A long name wraps; the count keeps its digits together on the first line. */}
      <span style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{name}</span>
      {count !== null && (
        <Typography.Text type="secondary" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
          {count}
        </Typography.Text>
      )}
    </span>
  );
}
