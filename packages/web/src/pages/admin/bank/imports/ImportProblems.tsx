import type { ImportProblem } from '@examhall/contract';
import { List, Tag } from 'antd';
import { useI18n } from '../../../../i18n/index.js';

const COLOR = { error: 'red', warning: 'orange', info: 'blue' } as const;

/** Every problem of a file, in the file's own terms (line, row, element) and the page's language. */
export function ImportProblems({ problems }: { problems: ImportProblem[] }) {
  const { t, lang } = useI18n();
  if (problems.length === 0) return null;
  return (
    <List
      size="small"
      bordered
      header={t('console.import.problems', { n: problems.length })}
      dataSource={problems}
      data-testid="import-problems"
      renderItem={(p) => (
        <List.Item data-testid="import-problem" data-severity={p.severity}>
          <Tag color={COLOR[p.severity]}>{t(`console.import.severity.${p.severity}`)}</Tag>
          <span>{lang === 'zh-CN' ? p.message_zh : p.message}</span>
        </List.Item>
      )}
    />
  );
}
