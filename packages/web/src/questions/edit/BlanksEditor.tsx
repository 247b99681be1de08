import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { BLANKS_MAX } from '@examhall/contract';
import { Button, Select, Space, Typography } from 'antd';
import { Form } from '../../shell/Form.js';
import { useI18n } from '../../i18n/index.js';
import type { BodyDrafts } from '../drafts.js';
import { problemsOf, type Problem } from '../problems.js';
import { ProblemLines } from './FieldProblems.js';
import { ContentStem } from './StemField.js';
import type { BodyEditorProps } from './types.js';

/** Fill in blank: the stem with its blanks, and the accepted answers of each blank. */
export function FillBlankEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'fill_blank'>) {
  return (
    <>
      <ContentStem body={value} onChange={onChange} problems={problems} ctx={ctx} />
      <BlanksKey value={value} onChange={onChange} problems={problems} idPrefix={idPrefix} />
    </>
  );
}

type BlankBody = BodyDrafts['fill_blank'];

/** The blanks: as many as the key has variant lists (the count follows), each with its accepted answers. */
function BlanksKey({
  value,
  onChange,
  problems,
  idPrefix,
}: {
  value: BlankBody;
  onChange: (next: BlankBody) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  const blanks = value.key.blanks;
  const set = (next: string[][]) =>
    onChange({ content: { ...value.content, blanks: next.length }, key: { ...value.key, blanks: next } });
  const listProblems = [...problemsOf(problems, 'content.blanks'), ...problemsOf(problems, 'key.blanks')];
  return (
    <Form.Item
      label={t('qedit.blanks')}
      extra={t('qedit.blanksHint')}
      validateStatus={listProblems.length > 0 ? 'error' : undefined}
      help={listProblems.length > 0 ? <ProblemLines problems={listProblems} /> : undefined}
      data-field="key.blanks"
    >
      <ol style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="blanks-editor">
        {blanks.map((variants, i) => {
          const id = `${idPrefix}-blank-${i}`;
          const mine = problemsOf(problems, `key.blanks.${i}`);
          return (
            <li key={i} data-testid="blank-row" style={{ marginBottom: 8 }}>
              <Space align="start" style={{ width: '100%' }}>
                <label htmlFor={id} style={{ display: 'inline-block', minWidth: 64, paddingTop: 4 }}>
                  {t('qedit.blank', { n: i + 1 })}
                </label>
                <div style={{ minWidth: 320 }}>
                  <Select
                    id={id}
                    mode="tags"
                    value={variants}
                    onChange={(v: string[]) => set(blanks.map((b, j) => (j === i ? v : b)))}
                    placeholder={t('qedit.variantsPlaceholder')}
                    notFoundContent={null}
                    style={{ width: '100%' }}
                    status={mine.length > 0 ? 'error' : undefined}
                    data-testid={`blank-variants-${i}`}
                  />
                  {mine.length > 0 && (
                    <Typography.Text type="danger">
                      <ProblemLines problems={mine} />
                    </Typography.Text>
                  )}
                </div>
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={t('qedit.removeBlank', { n: i + 1 })}
                  disabled={blanks.length <= 1}
                  onClick={() => set(blanks.filter((_, j) => j !== i))}
                  data-testid={`blank-remove-${i}`}
                />
              </Space>
            </li>
          );
        })}
      </ol>
      <Button
        icon={<PlusOutlined aria-hidden />}
        disabled={blanks.length >= BLANKS_MAX}
        onClick={() => set([...blanks, []])}
        data-testid="blank-add"
      >
        {t('qedit.addBlank')}
      </Button>
    </Form.Item>
  );
}
