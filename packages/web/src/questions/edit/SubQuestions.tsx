import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Select, Space, Tooltip } from 'antd';
import { InputNumber } from '../../shell/InputNumber.js';
import { Form } from '../../shell/Form.js';
import type { ComponentType } from 'react';
import { useI18n } from '../../i18n/index.js';
import { kindLabel } from '../labels.js';
import {
  convertBody,
  emptySub,
  nextSubId,
  subAsBody,
  subFromBody,
  SUB_KINDS,
  type KindBody,
  type SubDraft,
  type SubKeyDraft,
  type SubKind,
} from '../drafts.js';
import { problemsOf, subProblems, type Problem } from '../problems.js';
import { ProblemLines } from './FieldProblems.js';
import { PartScope } from './scope.js';
import type { BodyEditorProps, EditorContext } from './types.js';

/** The sub-questions of a reading or listening question and their keys (by sub id). */
export interface SubsState {
  subs: SubDraft[];
  keys: Record<string, SubKeyDraft>;
}

/** The sub-questions: each a nested editor of its own kind, with its points; added, removed and reordered. */
export function SubQuestionsEditor({
  state,
  onChange,
  problems,
  ctx,
  idPrefix,
}: {
  state: SubsState;
  onChange: (next: SubsState) => void;
  problems: readonly Problem[];
  ctx: EditorContext;
  idPrefix: string;
}) {
  const { t, lang } = useI18n();
  const { subs, keys } = state;
  const listProblems = problemsOf(problems, 'content.subs');
  const put = (i: number, next: { sub: SubDraft; key: SubKeyDraft }) =>
    onChange({
      subs: subs.map((s, j) => (j === i ? next.sub : s)),
      keys: { ...keys, [String(next.sub.id)]: next.key },
    });
  const move = (i: number, delta: number) => {
    const next = [...subs];
    const [moved] = next.splice(i, 1);
    next.splice(i + delta, 0, moved!);
    onChange({ subs: next, keys });
  };
  const remove = (i: number) => {
    const id = String(subs[i]!.id);
    const rest = { ...keys };
    delete rest[id];
    onChange({ subs: subs.filter((_, j) => j !== i), keys: rest });
  };
  const add = () => {
    const created = emptySub(nextSubId(subs), 'single', lang);
    onChange({ subs: [...subs, created.sub], keys: { ...keys, [String(created.sub.id)]: created.key } });
  };
  return (
    <Form.Item
      label={t('qedit.subs')}
      extra={t('qedit.subsHint')}
      validateStatus={listProblems.length > 0 ? 'error' : undefined}
      help={listProblems.length > 0 ? <ProblemLines problems={listProblems} /> : undefined}
      data-field="content.subs"
    >
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="subs-editor">
        {subs.map((sub, i) => (
          <SubCard
            key={sub.id}
            sub={sub}
            subKey={keys[String(sub.id)]}
            index={i}
            count={subs.length}
            onChange={(next) => put(i, next)}
            onMove={(delta) => move(i, delta)}
            onRemove={() => remove(i)}
            problems={subProblems(problems, i, sub.id)}
            ctx={ctx}
            idPrefix={`${idPrefix}-sub-${sub.id}`}
          />
        ))}
        <Button icon={<PlusOutlined aria-hidden />} onClick={add} disabled={subs.length >= 50} data-testid="sub-add">
          {t('qedit.subAdd')}
        </Button>
      </Space>
    </Form.Item>
  );
}

/** One sub-question: its kind, points and buttons, then its kind's own editor. */
function SubCard(props: {
  sub: SubDraft;
  subKey: SubKeyDraft | undefined;
  index: number;
  count: number;
  onChange: (next: { sub: SubDraft; key: SubKeyDraft }) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
  problems: Problem[];
  ctx: EditorContext;
  idPrefix: string;
}) {
  const { t, lang } = useI18n();
  const { sub, index, onChange } = props;
  const n = index + 1;
  const body = subAsBody(sub, props.subKey);
  const scoreProblems = problemsOf(props.problems, 'score');
  const setBody = (next: KindBody & { kind: SubKind }) => onChange(subFromBody(sub.id, sub.score, next));
  return (
    <Card
      size="small"
      title={t('qedit.sub', { n })}
      data-testid="sub-editor"
      data-sub={sub.id}
      extra={
        <Space size={2}>
          <Tooltip title={t('qedit.subUp', { n })}>
            <Button
              size="small"
              icon={<ArrowUpOutlined aria-hidden />}
              aria-label={t('qedit.subUp', { n })}
              disabled={index === 0}
              onClick={() => props.onMove(-1)}
            />
          </Tooltip>
          <Tooltip title={t('qedit.subDown', { n })}>
            <Button
              size="small"
              icon={<ArrowDownOutlined aria-hidden />}
              aria-label={t('qedit.subDown', { n })}
              disabled={index === props.count - 1}
              onClick={() => props.onMove(1)}
            />
          </Tooltip>
          <Tooltip title={t('qedit.subRemove', { n })}>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={t('qedit.subRemove', { n })}
              onClick={props.onRemove}
              data-testid="sub-remove"
            />
          </Tooltip>
        </Space>
      }
    >
      <Space wrap size="large" align="start">
        <Form.Item label={t('qedit.subKind', { n })} htmlFor={`${props.idPrefix}-kind`}>
          <Select
            id={`${props.idPrefix}-kind`}
            value={body.kind}
            onChange={(kind: SubKind) => setBody(convertBody(body, kind, lang))}
            options={SUB_KINDS.map((k) => ({
              value: k,
              label: kindLabel(k, lang),
            }))}
            style={{ minWidth: 160 }}
            data-testid="sub-kind"
          />
        </Form.Item>
        <Form.Item
          label={t('qedit.subScore', { n })}
          htmlFor={`${props.idPrefix}-score`}
          validateStatus={scoreProblems.length > 0 ? 'error' : undefined}
          help={scoreProblems.length > 0 ? <ProblemLines problems={scoreProblems} /> : undefined}
        >
          <InputNumber
            id={`${props.idPrefix}-score`}
            value={sub.score}
            min={0}
            max={1000}
            onChange={(score) => onChange({ sub: { ...sub, score }, key: props.subKey ?? {} })}
            data-testid="sub-score"
          />
        </Form.Item>
      </Space>
      <PartScope.Provider value={t('qedit.sub', { n })}>
        <SubBody body={body} onChange={setBody} problems={props.problems} ctx={props.ctx} idPrefix={props.idPrefix} />
      </PartScope.Provider>
    </Card>
  );
}

/** The kind's own editor of a sub-question. */
function SubBody({
  body,
  onChange,
  problems,
  ctx,
  idPrefix,
}: {
  body: KindBody & { kind: SubKind };
  onChange: (next: KindBody & { kind: SubKind }) => void;
  problems: readonly Problem[];
  ctx: EditorContext;
  idPrefix: string;
}) {
  // The editor is the one the body's kind has as a question of its own (its folder's edit.ts), so its value and
  // changes are that kind's (one cast, here).
  const Editor = ctx.editorOf(body.kind) as unknown as ComponentType<BodyEditorProps<SubKind>>;
  return (
    <Editor
      value={body}
      onChange={(next) => onChange({ ...next, kind: body.kind } as unknown as KindBody & { kind: SubKind })}
      problems={problems}
      ctx={ctx}
      idPrefix={idPrefix}
    />
  );
}
