import { BANK_SORTS, type BankQuestionItem, type QuestionKind } from '@examhall/contract';
import { Button, Drawer, Empty, Space, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { patchParams, readPaging, type ParamValue } from '../shared/listParams.js';
import { LoadError } from '../shared/PageTitle.js';
import { bankQueryFromParams, scopeOf } from './bankQuery.js';
import { folderOptions, type FolderOption } from './folderTree.js';
import { QuestionFilters } from './QuestionFilters.js';
import { QuestionTable } from './QuestionTable.js';
import { useFolders, useQuestions } from './queries.js';

/**
 * Picks bank questions (for an exam's fixed section): the bank's search and filters in a drawer, with its
 * own state (not in the page address), and the questions already taken marked as such.
 */
export function QuestionPicker(props: {
  open: boolean;
  title: string;
  /** Kinds the section takes; the list starts filtered to the only one when there is one. */
  kinds: readonly QuestionKind[] | null;
  /** Questions already in the exam: shown, not pickable again. */
  taken: ReadonlySet<number>;
  onPick: (questions: BankQuestionItem[]) => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const [params, setParams] = useState(
    () => new URLSearchParams(props.kinds?.length === 1 ? { kind: props.kinds[0]! } : {}),
  );
  const setFilters = (patch: Readonly<Record<string, ParamValue>>) => setParams((p) => patchParams(p, patch));
  const query = useMemo(() => bankQueryFromParams(params), [params]);
  const list = useQuestions(query, props.open);
  const paging = readPaging(params, BANK_SORTS);
  const [picked, setPicked] = useState<Map<number, BankQuestionItem>>(new Map());
  const rows = useMemo(() => list.data?.list ?? [], [list.data]);
  const folders = useFolders();
  const scope = scopeOf(params);
  const seenAuthors = useMemo(() => rows.map((q) => q.author), [rows]);

  const folderTree = useMemo(
    (): FolderOption<string>[] => [
      { value: 'all', title: t('console.bank.allQuestions'), children: [] },
      { value: 'unfiled', title: t('console.bank.unfiled'), children: [] },
      ...folderOptions(folders.data?.list ?? [], (f) => String(f.id)),
    ],
    [folders.data, t],
  );

  const finish = () => {
    props.onPick([...picked.values()]);
    setPicked(new Map());
  };
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      title={props.title}
      size="large"
      destroyOnHidden
      data-testid="question-picker"
      extra={
        <Space>
          <Button onClick={props.onClose}>{t('console.common.cancel')}</Button>
          <Button type="primary" disabled={picked.size === 0} onClick={finish} data-testid="picker-add">
            {t('console.exams.addPicked', { n: picked.size })}
          </Button>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <TreeSelect
          style={{ width: 240 }}
          treeDefaultExpandAll
          value={typeof scope === 'number' ? String(scope) : scope}
          onChange={(v: string) => setFilters({ folder: v === 'all' ? null : v })}
          treeData={folderTree}
          aria-label={t('console.bank.folders')}
        />
      </Space>
      <QuestionFilters
        params={params}
        setFilters={setFilters}
        seenAuthors={seenAuthors}
        inFolder={typeof scope === 'number'}
      />
      <LoadError error={list.error} />
      <QuestionTable
        list={list}
        state={{ paging, setPaging: (next) => setFilters({ ...next }) }}
        selected={[...picked.keys()]}
        unselectable={(q) => props.taken.has(q.id) || (props.kinds !== null && !props.kinds.includes(q.kind))}
        onSelect={(ids) =>
          setPicked((prev) => {
            const next = new Map<number, BankQuestionItem>();
            for (const id of ids) {
              const q = prev.get(id) ?? rows.find((r) => r.id === id);
              if (q) next.set(id, q);
            }
            return next;
          })
        }
        onOpen={(id) => window.open(`/admin/questions?edit=${id}`, '_blank', 'noopener')}
        empty={<Empty description={t('console.exams.pickEmpty')} />}
      />
      <Typography.Paragraph type="secondary">{t('console.exams.pickHint')}</Typography.Paragraph>
    </Drawer>
  );
}
