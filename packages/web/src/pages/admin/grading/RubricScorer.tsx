import type { GradingItemData } from '@examhall/contract';
import { Button, Flex, Input, Progress, Space, Typography } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { useMemo, useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { useShortcuts } from './keys.js';

/** What a mark sends: points per criterion (or for the whole answer) and a comment. */
export interface MarkInput {
  criteria: number[];
  points?: number;
  comment: string;
}

/** The criteria to score: the rubric's, or the whole answer as one when it has none. */
function rowsOf(item: GradingItemData, wholeLabel: string) {
  if (item.criteria.length > 0) return item.criteria;
  return [{ title: wholeLabel, points: item.max, description: '' }];
}

const ENTER = ['Enter'] as const;

/**
 * The rubric as a form: one row per criterion, scored by click or keys (↑↓ choose the criterion, a digit gives
 * that many points up to its maximum, F full points, Enter submits), with the running total. `autoFocus`: the
 * first criterion's box takes the focus when the scorer appears.
 */
export function RubricScorer({
  item,
  submitLabel,
  busy,
  autoFocus = false,
  onSubmit,
}: {
  item: GradingItemData;
  submitLabel: string;
  busy: boolean;
  autoFocus?: boolean;
  onSubmit: (mark: MarkInput) => void;
}) {
  const { t } = useI18n();
  const rows = useMemo(() => rowsOf(item, t('console.grading.whole')), [item, t]);
  const [points, setPoints] = useState<(number | null)[]>(() => rows.map(() => null));
  const [focus, setFocus] = useState(0);
  const [comment, setComment] = useState('');
  const invalid = points.some((p, i) => p === null || p < 0 || p > rows[i]!.points);
  const given = points.reduce<number>((n, p) => n + (p ?? 0), 0);
  const worth = rows.reduce((n, r) => n + r.points, 0);
  const total = Math.round(((given * item.max) / worth) * 100) / 100;

  const set = (i: number, value: number | null) =>
    setPoints((list) => list.map((p, j) => (j === i ? (value === null ? null : Math.min(value, rows[i]!.points)) : p)));
  const submit = () => {
    if (invalid || busy) return;
    const values = points.map((p) => p ?? 0);
    onSubmit(item.criteria.length > 0 ? { criteria: values, comment } : { criteria: [], points: values[0]!, comment });
  };
  const digits = Object.fromEntries(Array.from({ length: 10 }, (_, d) => [String(d), () => set(focus, d)] as const));
  useShortcuts(
    {
      ...digits,
      ArrowUp: () => setFocus((f) => Math.max(0, f - 1)),
      ArrowDown: () => setFocus((f) => Math.min(rows.length - 1, f + 1)),
      f: () => set(focus, rows[focus]!.points),
      Enter: submit,
    },
    ENTER,
  );

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="rubric-scorer">
      {rows.map((r, i) => (
        <Flex
          key={i}
          gap={12}
          align="center"
          justify="space-between"
          onClick={() => setFocus(i)}
          data-testid={`criterion-${i}`}
          data-focused={focus === i}
          style={{
            padding: 8,
            borderRadius: 6,
            border: `2px solid ${focus === i ? '#1668dc' : 'transparent'}`,
            cursor: 'pointer',
          }}
        >
          <div style={{ flex: 1 }}>
            <Typography.Text strong>{r.title}</Typography.Text>
            {r.description && (
              <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                {r.description}
              </Typography.Paragraph>
            )}
          </div>
          <InputNumber
            min={0}
            max={r.points}
            step={0.5}
            value={points[i]}
            autoFocus={autoFocus && i === 0}
            onFocus={() => setFocus(i)}
            onChange={(v) => set(i, v)}
            status={points[i] !== null && points[i]! > r.points ? 'error' : undefined}
            aria-label={`${r.title} (${t('console.grading.overMax', { max: r.points })})`}
            data-testid={`criterion-points-${i}`}
          />
          <Typography.Text type="secondary">/ {r.points}</Typography.Text>
        </Flex>
      ))}
      <Progress
        percent={item.max === 0 ? 0 : Math.round((total / item.max) * 100)}
        format={() => t('console.grading.total', { total, max: item.max })}
        aria-label={t('console.grading.total', { total, max: item.max })}
        data-testid="mark-total"
      />
      <Input.TextArea
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        maxLength={5000}
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={t('console.grading.comment')}
        aria-label={t('console.grading.comment')}
        data-testid="mark-comment"
      />
      <Button type="primary" disabled={invalid} loading={busy} onClick={submit} data-testid="mark-submit">
        {submitLabel}
      </Button>
    </Space>
  );
}
