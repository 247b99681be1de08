import { BANK_LIMITS, QUESTION_KINDS, type QuestionKind } from '@examhall/contract';
import { Button, Checkbox, Input, Select, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { kindLabel } from '../../../questions/labels.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { intParam, textParam, type ParamValue } from '../shared/listParams.js';
import { useStaffList } from '../staff/queries.js';
import { useTags } from './queries.js';

/** How long typing pauses before the search runs, ms. */
const SEARCH_DELAY_MS = 400;

/** Search by stem text and the filters of the question list; every change goes into the address. */
export function QuestionFilters(props: {
  params: URLSearchParams;
  setFilters: (patch: Readonly<Record<string, ParamValue>>) => void;
  /** Authors seen in the current page, for those who may not list staff accounts. */
  seenAuthors: readonly { id: number; name: string }[];
  inFolder: boolean;
}) {
  const { t, lang } = useI18n();
  const { params, setFilters } = props;
  const tags = useTags();
  const authors = useAuthorOptions(props.seenAuthors);
  const filtered = ['q', 'kind', 'difficulty', 'tag', 'kp', 'author', 'flagged'].some((k) => params.has(k));

  return (
    <Space wrap style={{ marginBottom: 12 }} data-testid="bank-filters">
      <SearchBox value={textParam(params, 'q') ?? ''} onSearch={(q) => setFilters({ q })} />
      <Select<QuestionKind>
        allowClear
        placeholder={t('console.bank.kind')}
        aria-label={t('console.bank.kind')}
        style={{ width: 150 }}
        value={(textParam(params, 'kind') as QuestionKind | undefined) ?? undefined}
        onChange={(kind) => setFilters({ kind })}
        options={QUESTION_KINDS.map((k) => ({ value: k, label: kindLabel(k, lang) }))}
        data-testid="bank-filter-kind"
      />
      <Select<number>
        allowClear
        placeholder={t('console.bank.difficulty')}
        aria-label={t('console.bank.difficulty')}
        style={{ width: 120 }}
        value={intParam(params, 'difficulty')}
        onChange={(difficulty) => setFilters({ difficulty })}
        options={[1, 2, 3, 4, 5].map((d) => ({ value: d, label: t(`console.bank.level.${d as 1 | 2 | 3 | 4 | 5}`) }))}
        data-testid="bank-filter-difficulty"
      />
      <Select<string>
        allowClear
        showSearch
        placeholder={t('console.bank.tag')}
        aria-label={t('console.bank.tag')}
        style={{ width: 160 }}
        loading={tags.isPending}
        value={textParam(params, 'tag')}
        onChange={(tag) => setFilters({ tag })}
        options={(tags.data?.list ?? []).map((tg) => ({ value: tg.tag, label: `${tg.tag} (${tg.count})` }))}
        data-testid="bank-filter-tag"
      />
      <KnowledgePointBox value={textParam(params, 'kp') ?? ''} onApply={(kp) => setFilters({ kp })} />
      <Select<number>
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('console.bank.author')}
        aria-label={t('console.bank.author')}
        style={{ width: 150 }}
        value={intParam(params, 'author')}
        onChange={(author) => setFilters({ author })}
        options={authors}
        data-testid="bank-filter-author"
      />
      <Checkbox
        checked={params.get('flagged') === '1'}
        onChange={(e) => setFilters({ flagged: e.target.checked ? 1 : null })}
        data-testid="bank-filter-flagged"
      >
        {t('analysis.bank.filter')}
      </Checkbox>
      {props.inFolder && (
        <Checkbox
          checked={params.get('sub') !== '0'}
          onChange={(e) => setFilters({ sub: e.target.checked ? null : 0 })}
        >
          {t('console.bank.subFolders')}
        </Checkbox>
      )}
      {filtered && (
        <Button
          type="link"
          onClick={() =>
            setFilters({ q: null, kind: null, difficulty: null, tag: null, kp: null, author: null, flagged: null })
          }
        >
          {t('console.bank.clearFilters')}
        </Button>
      )}
    </Space>
  );
}

/** The stem search: runs on Enter, and by itself once typing pauses. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  const applied = useRef(value);
  const search = useRef(onSearch);
  useEffect(() => {
    search.current = onSearch;
  }, [onSearch]);
  // The address may change from elsewhere (clear filters, back button): follow it.
  useEffect(() => {
    applied.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    if (text.trim() === applied.current) return;
    const timer = setTimeout(() => {
      applied.current = text.trim();
      search.current(text.trim());
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <Input.Search
      allowClear
      value={text}
      maxLength={BANK_LIMITS.searchChars}
      placeholder={t('console.bank.searchPlaceholder')}
      aria-label={t('console.bank.searchPlaceholder')}
      onChange={(e) => setText(e.target.value)}
      onSearch={(q) => {
        applied.current = q.trim();
        onSearch(q.trim());
      }}
      style={{ width: 260 }}
      data-testid="bank-search"
    />
  );
}

/** The knowledge point filter: applied on Enter or when the field is left. */
function KnowledgePointBox({ value, onApply }: { value: string; onApply: (kp: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const apply = () => {
    if (text.trim() !== value) onApply(text.trim());
  };
  return (
    <Input
      allowClear
      value={text}
      maxLength={BANK_LIMITS.knowledgePointChars}
      placeholder={t('console.bank.knowledgePoint')}
      aria-label={t('console.bank.knowledgePoint')}
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value === '' && value !== '') onApply('');
      }}
      onPressEnter={apply}
      onBlur={apply}
      style={{ width: 150 }}
      data-testid="bank-filter-kp"
    />
  );
}

/** Authors to filter by: every staff account for those who may list them, else oneself and those seen. */
function useAuthorOptions(seen: readonly { id: number; name: string }[]) {
  const me = useStaffMe();
  const staff = useStaffList();
  const byId = new Map<number, string>();
  if (me.data) byId.set(me.data.id, me.data.name);
  for (const a of seen) byId.set(a.id, a.name);
  if (can(me.data, 'staff.read'))
    for (const s of staff.data?.list ?? []) if (s.role === 'admin' || s.role === 'author') byId.set(s.id, s.name);
  return [...byId].map(([value, label]) => ({ value, label }));
}
