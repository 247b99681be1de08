import { enumText, SECTION_TEXTS } from '@examhall/contract';
import { Button, Flex, Input, Segmented, Select } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { rangeBackwards, type RankingState } from './rankingQuery.js';
import type { GradedSection } from './statsQuery.js';

type Patch = Partial<RankingState>;

/**
 * The ranking's section switch (of the scored sections the exam has, when it has more than one) and filters; ranges
 * are checked as they are typed.
 */
export function RankingFilters({
  query,
  sections,
  onChange,
}: {
  query: RankingState;
  sections: readonly GradedSection[];
  onChange: (patch: Patch) => void;
}) {
  const { t, lang } = useI18n();
  // The text boxes search on Enter, so what is typed lives in them: a reset mounts them again, empty.
  const [resets, setResets] = useState(0);
  const scoreBackwards = rangeBackwards(query.score_min, query.score_max);
  const riskBackwards = rangeBackwards(query.risk_min, query.risk_max);
  const num = (v: number | string | null) => (v === null || v === '' ? undefined : Number(v));
  return (
    <Flex vertical gap={12}>
      {sections.length > 1 && (
        <Segmented
          data-testid="results-section"
          value={query.section ?? 'all'}
          onChange={(v) => onChange({ section: v === 'all' ? undefined : (v as GradedSection) })}
          options={[
            { value: 'all', label: t('console.results.section.all') },
            ...sections.map((section) => ({ value: section, label: enumText(SECTION_TEXTS, section, lang) })),
          ]}
        />
      )}
      <Form layout="inline" component="div">
        <Form.Item>
          <Input.Search
            key={`school-${resets}`}
            allowClear
            placeholder={t('console.results.filter.school')}
            aria-label={t('console.results.filter.school')}
            onSearch={(v) => onChange({ school: v.trim() || undefined })}
            data-testid="results-filter-school"
          />
        </Form.Item>
        <Form.Item>
          <Input.Search
            key={`major-${resets}`}
            allowClear
            placeholder={t('console.results.filter.major')}
            aria-label={t('console.results.filter.major')}
            onSearch={(v) => onChange({ major: v.trim() || undefined })}
            data-testid="results-filter-major"
          />
        </Form.Item>
        <Form.Item
          validateStatus={scoreBackwards ? 'error' : undefined}
          help={scoreBackwards ? t('console.results.filter.range') : undefined}
        >
          <Flex gap={4}>
            <InputNumber
              min={0}
              // Wide enough for the whole hint, which is the field's only label on screen.
              style={{ width: 120 }}
              placeholder={t('console.results.filter.scoreMin')}
              aria-label={t('console.results.filter.scoreMin')}
              value={query.score_min as number | undefined}
              onChange={(v) => onChange({ score_min: num(v) })}
            />
            <InputNumber
              min={0}
              style={{ width: 120 }}
              placeholder={t('console.results.filter.scoreMax')}
              aria-label={t('console.results.filter.scoreMax')}
              value={query.score_max as number | undefined}
              onChange={(v) => onChange({ score_max: num(v) })}
            />
          </Flex>
        </Form.Item>
        <Form.Item
          validateStatus={riskBackwards ? 'error' : undefined}
          help={riskBackwards ? t('console.results.filter.range') : undefined}
        >
          <Flex gap={4}>
            <InputNumber
              min={0}
              precision={0}
              style={{ width: 150 }}
              placeholder={t('console.results.filter.riskMin')}
              aria-label={t('console.results.filter.riskMin')}
              value={query.risk_min as number | undefined}
              onChange={(v) => onChange({ risk_min: num(v) })}
            />
            <InputNumber
              min={0}
              precision={0}
              style={{ width: 150 }}
              placeholder={t('console.results.filter.riskMax')}
              aria-label={t('console.results.filter.riskMax')}
              value={query.risk_max as number | undefined}
              onChange={(v) => onChange({ risk_max: num(v) })}
            />
          </Flex>
        </Form.Item>
        <Form.Item>
          <Select
            allowClear
            style={{ minWidth: 180 }}
            placeholder={t('console.results.filter.flagged')}
            aria-label={t('console.results.filter.flagged')}
            value={query.flagged as string | undefined}
            onChange={(v: string | undefined) => onChange({ flagged: v as 'true' | 'false' | undefined })}
            options={[
              { value: 'true', label: t('console.results.filter.flaggedYes') },
              { value: 'false', label: t('console.results.filter.flaggedNo') },
            ]}
          />
        </Form.Item>
        <Form.Item>
          <Button
            data-testid="results-filter-reset"
            onClick={() => {
              setResets((n) => n + 1);
              onChange({
                school: undefined,
                major: undefined,
                score_min: undefined,
                score_max: undefined,
                risk_min: undefined,
                risk_max: undefined,
                flagged: undefined,
              });
            }}
          >
            {t('console.results.filter.reset')}
          </Button>
        </Form.Item>
      </Form>
    </Flex>
  );
}
