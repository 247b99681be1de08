import { BANK_LIMITS, QUESTION_POINTS_MAX, SECTION_ITEMS_MAX, type DrawRule } from '@examhall/contract';
import { Alert, Checkbox, Col, Row, Select, Spin, TreeSelect, Typography } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { useMemo } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { folderOptions } from '../bank/folderTree.js';
import { useFolders, useTags } from '../bank/queries.js';
import { drawSummary, problemAt, type Problems } from './draft.js';
import { Field } from './fields.js';
import { usePoolCount } from './usePoolCount.js';

/** A draw rule: how many questions, for how many points each, from which folders, tags and difficulties; with how many match. */
export function DrawRuleEditor(props: {
  rule: DrawRule;
  path: string;
  problems: Problems;
  readOnly: boolean;
  onChange: (rule: DrawRule) => void;
}) {
  const { t, lang } = useI18n();
  const { rule, path } = props;
  const folders = useFolders();
  const tags = useTags();
  const set = <K extends keyof DrawRule>(key: K, value: DrawRule[K]) => props.onChange({ ...rule, [key]: value });
  const folderTree = useMemo(() => folderOptions(folders.data?.list ?? [], (f) => f.id), [folders.data]);
  const names = useMemo(() => new Map((folders.data?.list ?? []).map((f) => [f.id, f.name])), [folders.data]);
  const summary = drawSummary(rule, (id) => names.get(id));
  const id = path.replace(/\./g, '-');

  return (
    <Form layout="vertical" disabled={props.readOnly} component="div">
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Field
            label={t('console.exams.drawCount')}
            problem={problemAt(props.problems, `${path}.count`)}
            htmlFor={`${id}-count`}
          >
            <InputNumber
              id={`${id}-count`}
              min={1}
              max={SECTION_ITEMS_MAX}
              precision={0}
              value={rule.count}
              onChange={(v) => set('count', v ?? 0)}
              data-testid={`${id}-count`}
            />
          </Field>
        </Col>
        <Col xs={12} md={6}>
          <Field
            label={t('console.exams.drawPoints')}
            problem={problemAt(props.problems, `${path}.points`)}
            htmlFor={`${id}-points`}
          >
            <InputNumber
              id={`${id}-points`}
              min={0.01}
              max={QUESTION_POINTS_MAX}
              value={rule.points}
              onChange={(v) => set('points', v ?? 0)}
              data-testid={`${id}-points`}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field
            label={t('console.exams.drawDifficulty')}
            problem={problemAt(props.problems, `${path}.difficulty`, true)}
          >
            <Checkbox.Group
              value={rule.difficulty}
              onChange={(v) =>
                set(
                  'difficulty',
                  (v as number[]).sort((a, b) => a - b),
                )
              }
              options={[1, 2, 3, 4, 5].map((d) => ({
                value: d,
                label: t(`console.bank.level.${d as 1 | 2 | 3 | 4 | 5}`),
              }))}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field label={t('console.exams.drawFolders')} problem={problemAt(props.problems, `${path}.folder_ids`, true)}>
            <TreeSelect
              multiple
              treeDefaultExpandAll
              allowClear
              value={rule.folder_ids}
              onChange={(v: number[]) => set('folder_ids', v)}
              treeData={folderTree}
              placeholder={t('console.exams.anyFolder')}
              aria-label={t('console.exams.drawFolders')}
              data-testid={`${id}-folders`}
            />
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field label={t('console.exams.drawTags')} problem={problemAt(props.problems, `${path}.tags`, true)}>
            <Select<string[]>
              mode="multiple"
              allowClear
              value={rule.tags}
              onChange={(v) => set('tags', v)}
              maxCount={BANK_LIMITS.tags}
              options={(tags.data?.list ?? []).map((tg) => ({ value: tg.tag, label: `${tg.tag} (${tg.count})` }))}
              placeholder={t('console.exams.anyTag')}
              aria-label={t('console.exams.drawTags')}
              data-testid={`${id}-tags`}
            />
          </Field>
        </Col>
      </Row>
      <Typography.Paragraph data-testid={`${id}-summary`}>
        {[
          t('console.exams.drawSummary', { n: summary.count, points: summary.points, total: summary.total }),
          summary.folders.length > 0
            ? t('console.exams.drawFrom', { folders: summary.folders.join(', ') })
            : t('console.exams.drawFromAny'),
          summary.tags.length > 0 ? t('console.exams.drawWithTags', { tags: summary.tags.join(', ') }) : null,
          summary.difficulty.length > 0
            ? t('console.exams.drawWithDifficulty', { levels: summary.difficulty.join(', ') })
            : null,
        ]
          .filter(Boolean)
          .join(lang === 'zh-CN' ? '' : ' ')}
        {t('console.exams.drawEnd')}
      </Typography.Paragraph>
      <PoolNotice rule={rule} id={id} />
    </Form>
  );
}

/** How many bank questions match the rule, and whether that is enough for the draw. */
function PoolNotice({ rule, id }: { rule: DrawRule; id: string }) {
  const { t } = useI18n();
  const pool = usePoolCount(rule, true);
  if (pool.state === 'loading') return <Spin size="small" />;
  if (pool.state === 'unknown') return <Alert type="info" showIcon title={t('console.exams.poolUncounted')} />;
  if (pool.state === 'error') return <Alert type="warning" showIcon title={errorText(pool.error)} />;
  const enough = pool.count >= rule.count;
  const matched = pool.atLeast
    ? t('console.exams.poolAtLeast', { n: pool.count })
    : t('console.exams.poolCount', { n: pool.count });
  return (
    <Alert
      type={enough ? 'success' : 'error'}
      showIcon
      data-testid={`${id}-pool`}
      data-count={pool.count}
      title={enough ? matched : `${matched} ${t('console.exams.poolTooSmall', { n: rule.count })}`}
      description={t('console.exams.poolHint')}
    />
  );
}
