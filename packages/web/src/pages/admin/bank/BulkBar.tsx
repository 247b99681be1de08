import { BankBulkTagBody, type BankBulkResult } from '@examhall/contract';
import { Alert, Button, Modal, Popconfirm, Select, Space, TreeSelect, Typography } from 'antd';
import { LinkButton } from '../shared/LinkButton.js';
import { useMemo, useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { firstProblem } from '../shared/zodRule.js';
import { folderOptions, type FolderOption } from './folderTree.js';
import { useBulk, useFolders, useTags, type BulkAction } from './queries.js';

/** What the last bulk action did, shown until dismissed. */
export interface BulkOutcome {
  kind: BulkAction['kind'];
  result: BankBulkResult;
}

/** Actions on the selected questions: move to a folder, add or remove tags, delete. */
export function BulkBar(props: { selected: number[]; onClear: () => void; onDone: (outcome: BulkOutcome) => void }) {
  const { t } = useI18n();
  const bulk = useBulk();
  const [dialog, setDialog] = useState<'move' | 'tag' | 'untag' | null>(null);
  const n = props.selected.length;
  const run = (action: BulkAction) =>
    bulk.mutate(action, {
      onSuccess: (result) => {
        setDialog(null);
        props.onDone({ kind: action.kind, result });
      },
    });
  if (n === 0) return null;
  return (
    <div
      role="region"
      aria-label={t('console.bank.bulkRegion')}
      style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 12 }}
      data-testid="bank-bulk"
    >
      <Typography.Text strong>{t('console.bank.selected', { n })}</Typography.Text>
      <Button size="small" onClick={() => setDialog('move')} data-testid="bulk-move">
        {t('console.bank.bulkMove')}
      </Button>
      <Button size="small" onClick={() => setDialog('tag')} data-testid="bulk-tag">
        {t('console.bank.bulkTag')}
      </Button>
      <Button size="small" onClick={() => setDialog('untag')} data-testid="bulk-untag">
        {t('console.bank.bulkUntag')}
      </Button>
      <Popconfirm
        title={t('console.bank.bulkDeleteTitle', { n })}
        description={t('console.bank.bulkDeleteBody')}
        okText={t('console.bank.delete')}
        okButtonProps={{ danger: true }}
        cancelText={t('console.common.cancel')}
        onConfirm={() => run({ kind: 'delete', ids: props.selected })}
      >
        <Button
          size="small"
          danger
          loading={bulk.isPending && bulk.variables.kind === 'delete'}
          data-testid="bulk-delete"
        >
          {t('console.bank.delete')}
        </Button>
      </Popconfirm>
      <Button size="small" type="link" onClick={props.onClear}>
        {t('console.bank.clearSelection')}
      </Button>
      {bulk.isError && dialog === null && <Typography.Text type="danger">{errorText(bulk.error)}</Typography.Text>}
      <MoveDialog
        open={dialog === 'move'}
        n={n}
        pending={bulk.isPending}
        error={bulk.isError ? errorText(bulk.error) : null}
        onCancel={() => setDialog(null)}
        onMove={(folderId) => run({ kind: 'move', ids: props.selected, folderId })}
      />
      <TagDialog
        open={dialog === 'tag' || dialog === 'untag'}
        mode={dialog === 'untag' ? 'untag' : 'tag'}
        n={n}
        pending={bulk.isPending}
        error={bulk.isError ? errorText(bulk.error) : null}
        onCancel={() => setDialog(null)}
        onApply={(tags) => run({ kind: dialog === 'untag' ? 'untag' : 'tag', ids: props.selected, tags })}
      />
    </div>
  );
}

function MoveDialog(props: {
  open: boolean;
  n: number;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onMove: (folderId: number | null) => void;
}) {
  const { t } = useI18n();
  const folders = useFolders();
  const [target, setTarget] = useState<number | undefined>(undefined);
  const treeData = useMemo(
    (): FolderOption<number>[] => [
      { value: -1, title: t('console.bank.unfiled'), children: [] },
      ...folderOptions(folders.data?.list ?? [], (f) => f.id),
    ],
    [folders.data, t],
  );
  return (
    <Modal
      open={props.open}
      title={t('console.bank.bulkMoveTitle', { n: props.n })}
      okText={t('console.bank.move')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ disabled: target === undefined, loading: props.pending }}
      onOk={() => props.onMove(target === -1 || target === undefined ? null : target)}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <TreeSelect
        style={{ width: '100%' }}
        treeDefaultExpandAll
        value={target}
        onChange={(v: number) => setTarget(v)}
        treeData={treeData}
        placeholder={t('console.bank.moveTo')}
        aria-label={t('console.bank.moveTo')}
        data-testid="bulk-move-target"
      />
      {props.error && <Alert type="error" showIcon title={props.error} style={{ marginTop: 12 }} />}
    </Modal>
  );
}

function TagDialog(props: {
  open: boolean;
  mode: 'tag' | 'untag';
  n: number;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onApply: (tags: string[]) => void;
}) {
  const { t } = useI18n();
  const tags = useTags();
  const [value, setValue] = useState<string[]>([]);
  const problem = value.length > 0 ? firstProblem(BankBulkTagBody.shape.tags, value) : null;
  return (
    <Modal
      open={props.open}
      title={t(props.mode === 'tag' ? 'console.bank.bulkTagTitle' : 'console.bank.bulkUntagTitle', { n: props.n })}
      okText={t(props.mode === 'tag' ? 'console.bank.bulkTag' : 'console.bank.bulkUntag')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ disabled: value.length === 0 || problem !== null, loading: props.pending }}
      onOk={() => props.onApply(value.map((v) => v.trim()))}
      onCancel={props.onCancel}
      afterClose={() => setValue([])}
      destroyOnHidden
    >
      <Select<string[]>
        mode={props.mode === 'tag' ? 'tags' : 'multiple'}
        style={{ width: '100%' }}
        value={value}
        onChange={setValue}
        options={(tags.data?.list ?? []).map((tg) => ({ value: tg.tag, label: tg.tag }))}
        placeholder={t(props.mode === 'tag' ? 'console.bank.tagsPlaceholder' : 'console.bank.untagPlaceholder')}
        aria-label={t('console.bank.tag')}
        status={problem ? 'error' : undefined}
        data-testid="bulk-tags"
      />
      {problem && (
        <Typography.Text type="danger" role="alert">
          {problem}
        </Typography.Text>
      )}
      {props.error && <Alert type="error" showIcon title={props.error} style={{ marginTop: 12 }} />}
    </Modal>
  );
}

/** Why a question was kept, in the page's language when the server's reason is a known one. */
export function keptReason(t: ReturnType<typeof useI18n>['t'], reason: string): string {
  const used = /^used by (\d+) exams?/.exec(reason);
  return used ? t('console.bank.keptUsed', { n: Number(used[1]) }) : reason;
}

/** What a bulk action did: how many changed, and each question kept with why. */
export function BulkOutcomeNotice({
  outcome,
  onClose,
  onOpen,
}: {
  outcome: BulkOutcome;
  onClose: () => void;
  onOpen: (id: number) => void;
}) {
  const { t } = useI18n();
  const { done, kept } = outcome.result;
  const doneText = t(`console.bank.bulkDone.${outcome.kind}`, { n: done.length });
  return (
    <Alert
      type={kept.length > 0 ? 'warning' : 'success'}
      showIcon
      closable
      onClose={onClose}
      style={{ marginBottom: 12 }}
      data-testid="bank-bulk-result"
      title={kept.length > 0 ? `${doneText} ${t('console.bank.bulkKept', { n: kept.length })}` : doneText}
      description={
        kept.length > 0 && (
          <Space orientation="vertical" size={2}>
            {kept.map((k) => (
              <span key={k.id} data-testid={`bank-kept-${k.id}`}>
                <LinkButton onClick={() => onOpen(k.id)}>#{k.id}</LinkButton> {keptReason(t, k.reason)}
              </span>
            ))}
          </Space>
        )
      }
    />
  );
}
