import { BANK_LIMITS } from '@examhall/contract';
import { Select, Space } from 'antd';
import { InputNumber } from '../../shell/InputNumber.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import type { DraftMeta } from '../drafts.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';

const DIFFICULTIES = [1, 2, 3, 4, 5] as const;

/** The bank's fields of a question: difficulty, default points, tags and knowledge points. */
export function MetaFields({
  meta,
  onChange,
  problems,
  tagOptions = [],
  idPrefix,
}: {
  meta: DraftMeta;
  onChange: (meta: DraftMeta) => void;
  problems: readonly Problem[];
  /** Tags already used in the bank, offered while typing. */
  tagOptions?: readonly string[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  return (
    <div data-testid="question-meta">
      <Space wrap size="large" align="start">
        <Field label={t('qedit.difficulty')} field="difficulty" problems={problems} htmlFor={`${idPrefix}-difficulty`}>
          <Select
            id={`${idPrefix}-difficulty`}
            value={meta.difficulty}
            onChange={(difficulty: number) => onChange({ ...meta, difficulty })}
            options={DIFFICULTIES.map((d) => ({ value: d, label: t(`qedit.difficulty.${d}` satisfies MessageKey) }))}
            style={{ minWidth: 140 }}
            data-testid="difficulty-select"
          />
        </Field>
        <Field
          label={t('qedit.defaultScore')}
          field="default_score"
          problems={problems}
          extra={t('qedit.defaultScoreHint')}
          htmlFor={`${idPrefix}-score`}
        >
          <InputNumber
            id={`${idPrefix}-score`}
            value={meta.default_score}
            min={0}
            max={1000}
            onChange={(default_score) => onChange({ ...meta, default_score })}
            data-testid="default-score"
          />
        </Field>
      </Space>
      <Field label={t('qedit.tags')} field="tags" problems={problems} htmlFor={`${idPrefix}-tags`}>
        <Select
          id={`${idPrefix}-tags`}
          mode="tags"
          value={meta.tags}
          onChange={(tags: string[]) => onChange({ ...meta, tags })}
          options={tagOptions.map((tag) => ({ value: tag, label: tag }))}
          placeholder={t('qedit.tagsPlaceholder')}
          maxCount={BANK_LIMITS.tags}
          data-testid="tags-select"
        />
      </Field>
      <Field
        label={t('qedit.knowledgePoints')}
        field="knowledge_points"
        problems={problems}
        htmlFor={`${idPrefix}-points`}
      >
        <Select
          id={`${idPrefix}-points`}
          mode="tags"
          value={meta.knowledge_points}
          onChange={(knowledge_points: string[]) => onChange({ ...meta, knowledge_points })}
          placeholder={t('qedit.tagsPlaceholder')}
          notFoundContent={null}
          maxCount={BANK_LIMITS.knowledgePoints}
          data-testid="knowledge-points-select"
        />
      </Field>
    </div>
  );
}
