import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  EXAM_SECTIONS_MAX,
  isDrawSection,
  kindsIn,
  SECTIONS,
  type ExamSectionDef,
  type QuestionKind,
  type Section,
  enumOptions,
  SECTION_TEXTS,
  sectionFullMarks,
  sectionQuestionCount,
} from '@examhall/contract';
import { Alert, App, Button, Card, Empty, Input, Select, Space, Statistic, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { QuestionPicker } from '../bank/QuestionPicker.js';
import { addItems, examTotals, fixedQuestionIds, moveItem, newSection, problemAt } from './draft.js';
import { DrawRuleEditor } from './DrawRuleEditor.js';
import type { PanelProps } from './fields.js';
import { FixedItems } from './FixedItems.js';

/** Kinds a section of a kind may hold (the registry says which sections each kind belongs in). */
export function kindsFor(section: Section): QuestionKind[] {
  return kindsIn(section);
}

/** The exam's sections: each a fixed list of bank questions or a random draw, in order, with their points. */
export function SectionsPanel({ editor, readOnly }: PanelProps) {
  const { t } = useI18n();
  const sections = editor.draft.sections;
  const totals = examTotals(sections);
  const setSections = (change: (s: ExamSectionDef[]) => ExamSectionDef[]) =>
    editor.update((d) => ({ ...d, sections: change(d.sections) }));
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="exam-sections">
      <Space size="large" wrap>
        <Statistic title={t('console.exams.sectionCount')} value={sections.length} />
        <Statistic title={t('console.exams.perCandidate')} value={totals.questions} />
        <Statistic title={t('console.exams.maxPoints')} value={totals.points} />
      </Space>
      {problemAt(editor.problems, 'sections') && (
        <Alert type="error" showIcon title={problemAt(editor.problems, 'sections')} />
      )}
      {sections.length === 0 && (
        <Card>
          <Empty description={t('console.exams.noSections')} />
        </Card>
      )}
      {sections.map((s, i) => (
        <SectionCard
          // Sections have no id of their own; their place is their identity while editing.
          key={i}
          index={i}
          count={sections.length}
          section={s}
          editor={editor}
          readOnly={readOnly}
          onChange={(next) => setSections((list) => list.map((x, j) => (j === i ? next : x)))}
          onMove={(to) => setSections((list) => moveItem(list, i, to))}
          onRemove={() => setSections((list) => list.filter((_, j) => j !== i))}
        />
      ))}
      {!readOnly && sections.length < EXAM_SECTIONS_MAX && (
        <AddSection onAdd={(s) => setSections((list) => [...list, s])} />
      )}
    </Space>
  );
}

function AddSection({ onAdd }: { onAdd: (s: ExamSectionDef) => void }) {
  const { t, lang } = useI18n();
  const [kind, setKind] = useState<Section>('major');
  return (
    <Card size="small">
      <Space wrap>
        <Typography.Text>{t('console.exams.addSection')}</Typography.Text>
        <Select<Section>
          value={kind}
          onChange={setKind}
          aria-label={t('console.exams.sectionKind')}
          style={{ width: 160 }}
          options={enumOptions(SECTION_TEXTS, SECTIONS, lang)}
          data-testid="section-new-kind"
        />
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() => onAdd(newSection(kind, 'fixed'))}
          data-testid="section-add-fixed"
        >
          {t('console.exams.addFixed')}
        </Button>
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() => onAdd(newSection(kind, 'draw'))}
          data-testid="section-add-draw"
        >
          {t('console.exams.addDraw')}
        </Button>
      </Space>
    </Card>
  );
}

function SectionCard(props: {
  index: number;
  count: number;
  section: ExamSectionDef;
  editor: PanelProps['editor'];
  readOnly: boolean;
  onChange: (s: ExamSectionDef) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { t, lang } = useI18n();
  const { message, modal } = App.useApp();
  const { section: s, index: i, readOnly } = props;
  const [picking, setPicking] = useState(false);
  const draw = isDrawSection(s);
  const path = `sections.${i}`;
  const remove = () => {
    if (sectionQuestionCount(s) === 0) return props.onRemove();
    modal.confirm({
      title: t('console.exams.removeSectionTitle', { n: i + 1 }),
      content: t('console.exams.removeSectionBody'),
      okText: t('console.exams.removeSection'),
      okButtonProps: { danger: true },
      cancelText: t('console.common.cancel'),
      onOk: props.onRemove,
    });
  };
  return (
    <Card
      size="small"
      data-testid={`section-${i}`}
      title={
        <Space wrap>
          <Typography.Text strong>{t('console.exams.sectionN', { n: i + 1 })}</Typography.Text>
          <Tag color={draw ? 'purple' : 'blue'}>
            {draw ? t('console.exams.drawSection') : t('console.exams.fixedSection')}
          </Tag>
          <Typography.Text type="secondary">
            {t('console.exams.sectionSummary', { n: sectionQuestionCount(s), points: sectionFullMarks(s) })}
          </Typography.Text>
        </Space>
      }
      extra={
        !readOnly && (
          <Space size={4}>
            <Button
              size="small"
              icon={<ArrowUpOutlined aria-hidden />}
              aria-label={t('console.exams.moveUp')}
              disabled={i === 0}
              onClick={() => props.onMove(i - 1)}
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined aria-hidden />}
              aria-label={t('console.exams.moveDown')}
              disabled={i === props.count - 1}
              onClick={() => props.onMove(i + 1)}
            />
            <Button
              size="small"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={t('console.exams.removeSection')}
              onClick={remove}
              data-testid={`section-remove-${i}`}
            />
          </Space>
        )
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          value={s.title}
          maxLength={100}
          disabled={readOnly}
          placeholder={t('console.exams.sectionTitle')}
          aria-label={t('console.exams.sectionTitle')}
          onChange={(e) => props.onChange({ ...s, title: e.target.value })}
          style={{ width: 260 }}
          data-testid={`section-title-${i}`}
        />
        <Select<Section>
          value={s.kind}
          disabled={readOnly}
          aria-label={t('console.exams.sectionKind')}
          style={{ width: 160 }}
          onChange={(kind) => props.onChange({ ...s, kind })}
          options={enumOptions(SECTION_TEXTS, SECTIONS, lang)}
        />
      </Space>
      {draw ? (
        <DrawRuleEditor
          rule={s.draw}
          path={`${path}.draw`}
          problems={props.editor.problems}
          readOnly={readOnly}
          onChange={(rule) => props.onChange({ ...s, draw: rule })}
        />
      ) : (
        <>
          <FixedItems
            items={s.items}
            section={s.kind}
            path={`${path}.items`}
            problems={props.editor.problems}
            readOnly={readOnly}
            onChange={(items) => props.onChange({ ...s, items })}
          />
          {!readOnly && (
            <Button
              icon={<PlusOutlined aria-hidden />}
              style={{ marginTop: 12 }}
              onClick={() => setPicking(true)}
              data-testid={`section-pick-${i}`}
            >
              {t('console.exams.addFromBank')}
            </Button>
          )}
          <QuestionPicker
            open={picking}
            title={t('console.exams.pickTitle', { n: i + 1 })}
            kinds={kindsFor(s.kind)}
            taken={fixedQuestionIds(props.editor.draft.sections)}
            onClose={() => setPicking(false)}
            onPick={(picked) => {
              setPicking(false);
              const { sections, skipped } = addItems(props.editor.draft.sections, i, picked);
              props.editor.update((d) => ({ ...d, sections }));
              if (skipped.length > 0)
                void message.warning(t('console.exams.skippedTaken', { ids: skipped.join(', ') }));
            }}
          />
        </>
      )}
    </Card>
  );
}
