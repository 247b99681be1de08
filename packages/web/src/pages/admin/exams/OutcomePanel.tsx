import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { ExamDefinition, PassingRule, PositionDef } from '@examhall/contract';
import { Button, Card, Col, Empty, Input, Radio, Row, Space, Typography } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { useI18n } from '../../../i18n/index.js';
import { examTotals, passingOfKind, problemAt } from './draft.js';
import { Field, type PanelProps } from './fields.js';

/** What comes before and after the exam: the pledge, the pass mark, what candidates see, positions to recommend. */
export function OutcomePanel({ editor, readOnly }: PanelProps) {
  const { t } = useI18n();
  const { draft, problems } = editor;
  const set = <K extends keyof ExamDefinition>(key: K, value: ExamDefinition[K]) =>
    editor.update((d) => ({ ...d, [key]: value }));
  const max = examTotals(draft.sections).points;
  return (
    <Form layout="vertical" disabled={readOnly} style={{ maxWidth: 900 }} data-testid="exam-outcome">
      <Field
        label={t('console.exams.pledge')}
        problem={problemAt(problems, 'pledge')}
        htmlFor="exam-pledge"
        extra={t('console.exams.pledgeHint')}
      >
        <Input.TextArea
          id="exam-pledge"
          rows={4}
          maxLength={5000}
          showCount
          value={draft.pledge}
          onChange={(e) => set('pledge', e.target.value)}
          data-testid="exam-pledge"
        />
      </Field>
      <PassingField
        rule={draft.passing}
        max={max}
        onChange={(p) => set('passing', p)}
        problem={problemAt(problems, 'passing', true)}
      />
      <Field label={t('console.exams.showScore')} problem={problemAt(problems, 'show_score')}>
        <Radio.Group
          value={draft.show_score}
          onChange={(e) => set('show_score', e.target.value as ExamDefinition['show_score'])}
          options={(['score', 'pass', 'none'] as const).map((v) => ({
            value: v,
            label: t(`console.exams.showScore.${v}`),
          }))}
          data-testid="exam-show-score"
        />
      </Field>
      <Field label={t('console.exams.showExplanations')} problem={problemAt(problems, 'show_explanations')}>
        <Radio.Group
          value={draft.show_explanations === null ? 'mode' : draft.show_explanations ? 'shown' : 'hidden'}
          onChange={(e) => set('show_explanations', e.target.value === 'mode' ? null : e.target.value === 'shown')}
          options={(['mode', 'shown', 'hidden'] as const).map((v) => ({
            value: v,
            label: t(`console.exams.showExplanations.${v}`),
          }))}
          data-testid="exam-show-explanations"
        />
      </Field>
      <Positions editor={editor} readOnly={readOnly} />
    </Form>
  );
}

function PassingField(props: {
  rule: PassingRule;
  max: number;
  onChange: (p: PassingRule) => void;
  problem: string | undefined;
}) {
  const { t } = useI18n();
  const { rule } = props;
  return (
    <Field
      label={t('console.exams.passing')}
      problem={props.problem}
      extra={rule.kind === 'points' ? t('console.exams.passingOf', { max: props.max }) : undefined}
    >
      <Space wrap>
        <Radio.Group
          value={rule.kind}
          onChange={(e) => props.onChange(passingOfKind(e.target.value as PassingRule['kind'], props.max))}
          options={(['none', 'points', 'percent'] as const).map((v) => ({
            value: v,
            label: t(`console.exams.passing.${v}`),
          }))}
          data-testid="exam-passing"
        />
        {rule.kind === 'points' && (
          <InputNumber
            aria-label={t('console.exams.passing.points')}
            min={0}
            value={rule.min_points}
            onChange={(v) => props.onChange({ kind: 'points', min_points: v ?? 0 })}
            suffix={t('console.exams.pointsUnit')}
            data-testid="exam-passing-points"
          />
        )}
        {rule.kind === 'percent' && (
          <InputNumber
            aria-label={t('console.exams.passing.percent')}
            min={0}
            max={100}
            value={rule.min_percent}
            onChange={(v) => props.onChange({ kind: 'percent', min_percent: v ?? 0 })}
            suffix="%"
            data-testid="exam-passing-percent"
          />
        )}
      </Space>
    </Field>
  );
}

/** Positions recommended after the exam to candidates reaching each one's bar. */
function Positions({ editor, readOnly }: PanelProps) {
  const { t } = useI18n();
  const positions = editor.draft.positions;
  const setAt = (i: number, patch: Partial<PositionDef>) =>
    editor.update((d) => ({ ...d, positions: d.positions.map((p, j) => (j === i ? { ...p, ...patch } : p)) }));
  const add = () =>
    editor.update((d) => ({
      ...d,
      positions: [...d.positions, { title: '', department: '', city: '', description: '', min_ratio: 0.6 }],
    }));
  const remove = (i: number) => editor.update((d) => ({ ...d, positions: d.positions.filter((_, j) => j !== i) }));
  return (
    <section aria-labelledby="positions-title">
      <Typography.Title level={3} id="positions-title" style={{ fontSize: 15 }}>
        {t('console.exams.positions')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('console.exams.positionsHint')}</Typography.Paragraph>
      {positions.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('console.exams.noPositions')} />
      )}
      <Space orientation="vertical" style={{ width: '100%' }}>
        {positions.map((p, i) => {
          const path = `positions.${i}`;
          return (
            <Card
              key={i}
              size="small"
              title={p.title || t('console.exams.positionN', { n: i + 1 })}
              extra={
                !readOnly && (
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={t('console.exams.removePosition', { n: i + 1 })}
                    onClick={() => remove(i)}
                  />
                )
              }
            >
              <Row gutter={12}>
                <Col xs={24} md={8}>
                  <Field
                    label={t('console.exams.position.title')}
                    problem={problemAt(editor.problems, `${path}.title`)}
                    htmlFor={`pos-${i}-title`}
                    required
                  >
                    <Input
                      id={`pos-${i}-title`}
                      value={p.title}
                      maxLength={100}
                      onChange={(e) => setAt(i, { title: e.target.value })}
                    />
                  </Field>
                </Col>
                <Col xs={12} md={6}>
                  <Field
                    label={t('console.exams.position.department')}
                    problem={problemAt(editor.problems, `${path}.department`)}
                    htmlFor={`pos-${i}-dept`}
                  >
                    <Input
                      id={`pos-${i}-dept`}
                      value={p.department}
                      maxLength={100}
                      onChange={(e) => setAt(i, { department: e.target.value })}
                    />
                  </Field>
                </Col>
                <Col xs={12} md={5}>
                  <Field
                    label={t('console.exams.position.city')}
                    problem={problemAt(editor.problems, `${path}.city`)}
                    htmlFor={`pos-${i}-city`}
                  >
                    <Input
                      id={`pos-${i}-city`}
                      value={p.city}
                      maxLength={100}
                      onChange={(e) => setAt(i, { city: e.target.value })}
                    />
                  </Field>
                </Col>
                <Col xs={24} md={5}>
                  <Field
                    label={t('console.exams.position.bar')}
                    problem={problemAt(editor.problems, `${path}.min_ratio`)}
                    htmlFor={`pos-${i}-bar`}
                  >
                    <InputNumber
                      id={`pos-${i}-bar`}
                      min={0}
                      max={100}
                      value={Math.round(p.min_ratio * 1000) / 10}
                      onChange={(v) => setAt(i, { min_ratio: (v ?? 0) / 100 })}
                      suffix="%"
                    />
                  </Field>
                </Col>
                <Col span={24}>
                  <Field
                    label={t('console.exams.position.description')}
                    problem={problemAt(editor.problems, `${path}.description`)}
                    htmlFor={`pos-${i}-desc`}
                  >
                    <Input.TextArea
                      id={`pos-${i}-desc`}
                      rows={2}
                      maxLength={2000}
                      value={p.description}
                      onChange={(e) => setAt(i, { description: e.target.value })}
                    />
                  </Field>
                </Col>
              </Row>
            </Card>
          );
        })}
      </Space>
      {!readOnly && (
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={add}
          style={{ marginTop: 12 }}
          data-testid="exam-add-position"
        >
          {t('console.exams.addPosition')}
        </Button>
      )}
    </section>
  );
}
