import { FolderAddOutlined, FolderOutlined } from '@ant-design/icons';
import { BANK_LIMITS, BankFolderName, type BankFolderNode } from '@examhall/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Spin,
  Tooltip,
  Tree,
  TreeSelect,
  Typography,
  type TreeDataNode,
} from 'antd';
import { useMemo, useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { FormError } from '../../../shell/FormError.js';
import { LoadError } from '../shared/PageTitle.js';
import { zodRule } from '../shared/zodRule.js';
import { TeamSelect } from '../staff/TeamSelect.js';
import type { FolderScope } from './bankQuery.js';
import { buildTree, folderOptions, moveTargets, type FolderBranch, type FolderOption } from './folderTree.js';
import { useCreateFolder, useDeleteFolder, useFolders, useUpdateFolder } from './queries.js';

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
      icon: <FolderOutlined />,
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
      <span>{name}</span>
      {count !== null && <Typography.Text type="secondary">{count}</Typography.Text>}
    </span>
  );
}

/** Creates a folder (under the selected one, or at the top) or renames the selected one. */
function FolderNameModal(props: {
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

/** Moves a folder under another one or to the top; targets that would make a loop are not offered. */
function FolderMoveModal(props: {
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

/** Deletes an empty folder; one with questions or sub-folders says what to do first. */
function DeleteFolder({ folder, onDeleted }: { folder: BankFolderNode; onDeleted: () => void }) {
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
