import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Radio, Space, Tooltip, Typography } from 'antd';
import { InputNumber } from '../../shell/InputNumber.js';
import { Form } from '../../shell/Form.js';
import { useContext, useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import type { OptionDraft } from '../drafts.js';
import { blockHtml, inlineHtml } from '../html.js';
import {
  addOption,
  canAddOption,
  dropOption,
  markRight,
  moveOption,
  removeOption,
  type OptionKeyFields,
  type OptionState,
} from '../options.js';
import { problemsOf, type Problem } from '../problems.js';
import { ProblemLines } from './FieldProblems.js';
import { RichText } from './RichText.js';
import { ReadOnly } from './scope.js';
import type { EditorContext } from './types.js';

/** How the key names options: the one right option, the right ones, or points for each. */
export type OptionMode = 'one' | 'many' | 'points';

/**
 * The options of a choice question and the key that names them: add, remove, reorder (buttons, or drag
 * by the handle) with the letters and the key following, and the right one(s) or each option's points.
 */
export function OptionsEditor<K extends OptionKeyFields>({
  state,
  onChange,
  mode,
  fixed = false,
  problems,
  ctx,
  idPrefix,
}: {
  state: OptionState<K>;
  onChange: (next: OptionState<K>) => void;
  mode: OptionMode;
  /** True/false: exactly two options, never added, removed or moved. */
  fixed?: boolean;
  problems: readonly Problem[];
  ctx: EditorContext;
  idPrefix: string;
}) {
  const { t } = useI18n();
  const [dragged, setDragged] = useState<string | null>(null);
  const keyField = mode === 'one' ? 'key.option' : mode === 'many' ? 'key.options' : 'key.scores';
  const listProblems = [...problemsOf(problems, 'content.options'), ...problemsOf(problems, keyField)];
  return (
    <Form.Item
      label={t('qedit.options')}
      extra={fixed ? undefined : t('qedit.optionsHint')}
      validateStatus={listProblems.length > 0 ? 'error' : undefined}
      help={listProblems.length > 0 ? <ProblemLines problems={listProblems} /> : undefined}
      data-field="content.options"
    >
      <ol className="option-editor" data-testid="option-editor" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {state.options.map((option, i) => (
          <OptionRow
            key={i}
            option={option}
            index={i}
            count={state.options.length}
            state={state}
            onChange={onChange}
            mode={mode}
            fixed={fixed}
            problems={[
              ...problemsOf(problems, `content.options.${i}`),
              ...(mode === 'points' ? problemsOf(problems, `key.scores.${option.id}`) : []),
            ]}
            ctx={ctx}
            idPrefix={idPrefix}
            dragged={dragged}
            setDragged={setDragged}
          />
        ))}
      </ol>
      {!fixed && (
        <Button
          icon={<PlusOutlined aria-hidden />}
          disabled={!canAddOption(state)}
          onClick={() => onChange(addOption(state))}
          data-testid="option-add"
        >
          {t('qedit.addOption')}
        </Button>
      )}
    </Form.Item>
  );
}

/** One option: handle, letter, right mark or points, its text, and the buttons that move or remove it. */
function OptionRow<K extends OptionKeyFields>(props: {
  option: OptionDraft;
  index: number;
  count: number;
  state: OptionState<K>;
  onChange: (next: OptionState<K>) => void;
  mode: OptionMode;
  fixed: boolean;
  problems: readonly Problem[];
  ctx: EditorContext;
  idPrefix: string;
  dragged: string | null;
  setDragged: (id: string | null) => void;
}) {
  const { t } = useI18n();
  const { option, index, state, onChange } = props;
  const readOnly = useContext(ReadOnly);
  const id = option.id;
  const setText = (html: string) =>
    onChange({
      ...state,
      options: state.options.map((o, i) => (i === index ? { ...o, content: inlineHtml(html) } : o)),
    });
  return (
    <li
      className="option-row"
      data-testid="option-row"
      data-option={id}
      onDragOver={(e) => {
        if (props.dragged !== null) e.preventDefault();
      }}
      onDrop={(e) => {
        e.preventDefault();
        if (props.dragged !== null) onChange(dropOption(state, props.dragged, id));
        props.setDragged(null);
      }}
      style={{ marginBottom: 12 }}
    >
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 8, width: '100%' }}>
        {!props.fixed && !readOnly && (
          <span
            draggable
            onDragStart={(e) => {
              // A type of our own: the option editors' text areas take no part in the drop.
              e.dataTransfer.setData('application/x-examhall-option', id);
              e.dataTransfer.effectAllowed = 'move';
              props.setDragged(id);
            }}
            onDragEnd={() => props.setDragged(null)}
            title={t('qedit.drag', { id })}
            aria-hidden
            style={{ cursor: 'grab', paddingTop: 16 }}
          >
            <HolderOutlined aria-hidden />
          </span>
        )}
        <Typography.Text strong style={{ display: 'inline-block', minWidth: 20, paddingTop: 14 }}>
          {id}.
        </Typography.Text>
        <RightMark {...props} />
        <div style={{ flex: '1 1 auto', minWidth: 0 }}>
          <RichText
            value={blockHtml(option.content)}
            onChange={setText}
            label={t('qedit.option', { id })}
            testId={`option-text-${id}`}
            compact
            ctx={props.ctx}
          />
          {props.problems.length > 0 && (
            <Typography.Text type="danger">
              <ProblemLines problems={props.problems} />
            </Typography.Text>
          )}
        </div>
        {!props.fixed && (
          <Space size={2} style={{ paddingTop: 12 }}>
            <Tooltip title={t('qedit.moveUp', { id })}>
              <Button
                size="small"
                icon={<ArrowUpOutlined aria-hidden />}
                aria-label={t('qedit.moveUp', { id })}
                disabled={index === 0}
                onClick={() => onChange(moveOption(state, id, -1))}
                data-testid={`option-up-${id}`}
              />
            </Tooltip>
            <Tooltip title={t('qedit.moveDown', { id })}>
              <Button
                size="small"
                icon={<ArrowDownOutlined aria-hidden />}
                aria-label={t('qedit.moveDown', { id })}
                disabled={index === props.count - 1}
                onClick={() => onChange(moveOption(state, id, 1))}
                data-testid={`option-down-${id}`}
              />
            </Tooltip>
            <Tooltip title={t('qedit.removeOption', { id })}>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined aria-hidden />}
                aria-label={t('qedit.removeOption', { id })}
                onClick={() => onChange(removeOption(state, id))}
                data-testid={`option-remove-${id}`}
              />
            </Tooltip>
          </Space>
        )}
      </div>
    </li>
  );
}

/** Marks an option right (one or several) or gives its points. */
function RightMark<K extends OptionKeyFields>(props: {
  option: OptionDraft;
  state: OptionState<K>;
  onChange: (next: OptionState<K>) => void;
  mode: OptionMode;
  idPrefix: string;
}) {
  const { t } = useI18n();
  const { state, onChange, mode } = props;
  const id = props.option.id;
  const testId = `option-right-${id}`;
  if (mode === 'one') {
    return (
      <Radio
        checked={state.key.option === id}
        onChange={(e) => onChange(markRight(state, id, e.target.checked, false))}
        aria-label={t('qedit.markRight', { id })}
        name={`${props.idPrefix}-right`}
        data-testid={testId}
        style={{ paddingTop: 14 }}
      >
        {t('qedit.right')}
      </Radio>
    );
  }
  if (mode === 'many') {
    return (
      <Checkbox
        checked={(state.key.options ?? []).includes(id)}
        onChange={(e) => onChange(markRight(state, id, e.target.checked, true))}
        aria-label={t('qedit.markRight', { id })}
        data-testid={testId}
        style={{ paddingTop: 14 }}
      >
        {t('qedit.right')}
      </Checkbox>
    );
  }
  const points = state.key.scores?.[id];
  return (
    <InputNumber
      value={points ?? null}
      min={0}
      max={1000}
      step={1}
      style={{ width: 96, marginTop: 12 }}
      suffix={t('qedit.points')}
      aria-label={t('qedit.pointsOf', { id })}
      onChange={(v) => {
        const scores = { ...state.key.scores };
        if (typeof v === 'number') scores[id] = v;
        else delete scores[id];
        onChange({ ...state, key: { ...state.key, scores } });
      }}
      data-testid={`option-points-${id}`}
    />
  );
}
