import type { RubricCriterion } from '@examhall/contract';
import { Button, Flex, Input } from 'antd';
import { InputNumber } from '../../shell/InputNumber.js';
import { useI18n } from '../../i18n/index.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';

/** The most criteria a rubric has (the contract's limit). */
const MAX_CRITERIA = 20;

/** The rubric's criteria, each with its points and what earns them; graders score them one by one. */
export function CriteriaField({
  value,
  onChange,
  problems,
  idPrefix,
}: {
  value: RubricCriterion[] | undefined;
  /** The new list, or undefined when it is emptied (the answer is then scored as a whole). */
  onChange: (criteria: RubricCriterion[] | undefined) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  const list = value ?? [];
  const put = (i: number, patch: Partial<RubricCriterion>) =>
    onChange(list.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const remove = (i: number) => {
    const next = list.filter((_, j) => j !== i);
    onChange(next.length > 0 ? next : undefined);
  };
  return (
    <Field label={t('qedit.criteria')} field="key.criteria" problems={problems} extra={t('qedit.criteriaHint')}>
      <Flex vertical gap={8} data-testid="criteria-editor">
        {list.map((c, i) => (
          <Flex key={i} gap={8} wrap align="start">
            <Input
              id={`${idPrefix}-criterion-${i}`}
              value={c.title}
              onChange={(e) => put(i, { title: e.target.value })}
              placeholder={t('qedit.criterionTitle')}
              aria-label={t('qedit.criterionTitle')}
              status={c.title.trim() === '' ? 'error' : undefined}
              style={{ width: 180 }}
            />
            <InputNumber
              value={c.points}
              min={0.5}
              max={1000}
              step={0.5}
              onChange={(points) => put(i, { points: points ?? 0 })}
              aria-label={t('qedit.criterionPoints')}
              status={c.points > 0 ? undefined : 'error'}
            />
            <Input
              value={c.description}
              onChange={(e) => put(i, { description: e.target.value })}
              placeholder={t('qedit.criterionDescription')}
              aria-label={t('qedit.criterionDescription')}
              style={{ flex: 1, minWidth: 200 }}
            />
            <Button onClick={() => remove(i)}>{t('qedit.removeCriterion')}</Button>
          </Flex>
        ))}
        <Button
          onClick={() => onChange([...list, { title: '', points: 1, description: '' }])}
          disabled={list.length >= MAX_CRITERIA}
          style={{ alignSelf: 'start' }}
          data-testid="criteria-add"
        >
          {t('qedit.addCriterion')}
        </Button>
      </Flex>
    </Field>
  );
}
