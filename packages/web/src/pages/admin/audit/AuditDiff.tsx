import { Empty, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import {
  enumText,
  type AuditEntry,
  SECTION_TEXTS,
  SECTIONS,
  SIGN_IN_METHOD_TEXTS,
  SIGN_IN_METHODS,
  type Section,
  type SignInMethod,
} from '@examhall/contract';
import type { Language } from '../../../i18n/format.js';
import { useI18n } from '../../../i18n/index.js';
import { fieldPathParts } from './fields.js';
import { countChanges, diffEntries, type DiffRow, type FieldChange } from './diff.js';

const CHANGE_COLOR: Record<Exclude<FieldChange, 'same'>, string> = {
  added: 'green',
  removed: 'red',
  changed: 'gold',
};

/** One entry's before and after, field by field; changed fields are highlighted, unchanged ones hidden unless asked. */
export function AuditDiff({ entry }: { entry: AuditEntry }) {
  const { t, lang } = useI18n();
  const rows = useMemo(() => diffEntries(entry.before, entry.after), [entry.before, entry.after]);
  const [showSame, setShowSame] = useState(false);
  const changed = countChanges(rows);
  const shown = showSame ? rows : rows.filter((r) => r.change !== 'same');
  if (rows.length === 0) return <Typography.Text type="secondary">{t('console.audit.noSnapshot')}</Typography.Text>;

  const columns: TableColumnsType<DiffRow> = [
    {
      title: t('console.audit.field'),
      dataIndex: 'path',
      width: '24%',
      render: (path: string, r) => (
        <Space size={4} wrap>
          <span>
            {fieldPathParts(path, lang).map((p, i) => (
              <Fragment key={i}>
                {i > 0 && ' › '}
                {p.named ? p.text : <code>{p.text}</code>}
              </Fragment>
            ))}
          </span>
          {r.change !== 'same' && <Tag color={CHANGE_COLOR[r.change]}>{t(`console.audit.change.${r.change}`)}</Tag>}
        </Space>
      ),
    },
    {
      title: t('console.audit.before'),
      dataIndex: 'before',
      render: (v: string | null, r) => (
        <Value text={v} path={r.path} mark={r.change === 'changed' || r.change === 'removed' ? 'del' : null} />
      ),
    },
    {
      title: t('console.audit.after'),
      dataIndex: 'after',
      render: (v: string | null, r) => (
        <Value text={v} path={r.path} mark={r.change === 'changed' || r.change === 'added' ? 'ins' : null} />
      ),
    },
  ];
  return (
    <div data-testid={`audit-diff-${entry.id}`}>
      <Space style={{ marginBottom: 8 }} wrap>
        <Typography.Text>{t('console.audit.changedFields', { n: changed })}</Typography.Text>
        {rows.length > changed && (
          <label>
            <Switch size="small" checked={showSame} onChange={setShowSame} />{' '}
            {t('console.audit.showSame', { n: rows.length - changed })}
          </label>
        )}
      </Space>
      <Table<DiffRow>
        size="small"
        rowKey="path"
        columns={columns}
        dataSource={shown}
        pagination={false}
        rowClassName={(r) => (r.change === 'same' ? 'audit-same' : 'audit-changed')}
        locale={{ emptyText: <Empty description={t('console.audit.nothingChanged')} /> }}
      />
    </div>
  );
}

/** A value in the diff; a changed one is marked as removed (before) or inserted (after), not by colour alone. */
function Value({ text, path, mark }: { text: string | null; path: string; mark: 'del' | 'ins' | null }) {
  const { t, lang } = useI18n();
  if (text === null) return <Typography.Text type="secondary">{t('console.audit.absent')}</Typography.Text>;
  const style = { whiteSpace: 'pre-wrap' as const, wordBreak: 'break-word' as const };
  const shown = valueWords(text, path, lang, t);
  if (mark === 'del') return <del style={{ ...style, background: '#fde8e8' }}>{shown}</del>;
  if (mark === 'ins') return <ins style={{ ...style, background: '#e6f4ea', textDecoration: 'none' }}>{shown}</ins>;
  return <span style={style}>{shown}</span>;
}

/**
 * A value in words where it is one of ours: yes and no, a section by its name, a sign-in's method (field `method`) by
 * its name; another stored code (`none`, `score`) as code, apart from the page's words.
 */
function valueWords(text: string, path: string, lang: Language, t: ReturnType<typeof useI18n>['t']): ReactNode {
  if (text === 'true') return t('console.audit.yes');
  if (text === 'false') return t('console.audit.no');
  if ((SECTIONS as readonly string[]).includes(text)) return enumText(SECTION_TEXTS, text as Section, lang);
  if (path === 'method' && (SIGN_IN_METHODS as readonly string[]).includes(text)) {
    return enumText(SIGN_IN_METHOD_TEXTS, text as SignInMethod, lang);
  }
  return /^[a-z][a-z0-9_.]*$/.test(text) ? <code>{text}</code> : text;
}
