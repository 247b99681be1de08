import type { ImportProblem } from '@examhall/contract';
import { List, Tag } from 'antd';
import { useI18n } from '../../../../i18n/index.js';

const COLOR = { error: 'red', warning: 'orange', info: 'blue' } as const;

/**
 * The first problems of a file (errors first), in the file's own terms (line, row, element) and the page's
 * language; `total` is how many the file has.
 */
export function ImportProblems({ problems, total }: { problems: ImportProblem[]; total: number }) {
  const { t, lang } = useI18n();
  if (problems.length === 0) return null;
  return (
    <List
      size="small"
      bordered
      header={
        total > problems.length
          ? t('console.import.problemsShown', { n: total.toLocaleString(lang), shown: problems.length })
          : t('console.import.problems', { n: total })
      }
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
