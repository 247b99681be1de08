import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CODE_LIMITS } from '@examhall/contract';
import { Button, Card, Input, Space, Typography } from 'antd';
import { Form } from '../../shell/Form.js';
import { useI18n } from '../../i18n/index.js';
import type { SampleDraft } from '../drafts.js';
import { problemsOf, type Problem } from '../problems.js';
import { ProblemLines } from './FieldProblems.js';

/** The sample cases candidates see (and "run" uses): input and expected output of each. */
export function SamplesEditor({
  samples,
  onChange,
  problems,
  idPrefix,
}: {
  samples: SampleDraft[];
  onChange: (samples: SampleDraft[]) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  const listProblems = problemsOf(problems, 'content.samples');
  const set = (i: number, patch: Partial<SampleDraft>) =>
    onChange(samples.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  return (
    <Form.Item
      label={t('qedit.samples')}
      extra={t('qedit.samplesHint')}
      validateStatus={listProblems.length > 0 ? 'error' : undefined}
      help={listProblems.length > 0 ? <ProblemLines problems={listProblems} /> : undefined}
      data-field="content.samples"
    >
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="samples-editor">
        {samples.map((sample, i) => {
          const mine = problemsOf(problems, `content.samples.${i}`);
          return (
            <Card
              key={i}
              size="small"
              title={t('qedit.sample', { n: i + 1 })}
              data-testid="sample-row"
              extra={
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={t('qedit.removeSample', { n: i + 1 })}
                  onClick={() => onChange(samples.filter((_, j) => j !== i))}
                />
              }
            >
              <div className="sample-io">
                <div>
                  <label htmlFor={`${idPrefix}-sample-${i}-in`}>{t('qedit.input')}</label>
                  <Input.TextArea
                    id={`${idPrefix}-sample-${i}-in`}
                    value={sample.input}
                    onChange={(e) => set(i, { input: e.target.value })}
                    autoSize={{ minRows: 2, maxRows: 10 }}
                    className="code-text"
                    data-testid="sample-input"
                  />
                </div>
                <div>
                  <label htmlFor={`${idPrefix}-sample-${i}-out`}>{t('qedit.output')}</label>
                  <Input.TextArea
                    id={`${idPrefix}-sample-${i}-out`}
                    value={sample.output}
                    onChange={(e) => set(i, { output: e.target.value })}
                    autoSize={{ minRows: 2, maxRows: 10 }}
                    className="code-text"
                    data-testid="sample-output"
                  />
                </div>
              </div>
              {mine.length > 0 && (
                <Typography.Text type="danger">
                  <ProblemLines problems={mine} />
                </Typography.Text>
              )}
            </Card>
          );
        })}
        <Button
          icon={<PlusOutlined aria-hidden />}
          disabled={samples.length >= CODE_LIMITS.samples}
          onClick={() => onChange([...samples, { input: '', output: '' }])}
          data-testid="sample-add"
        >
          {t('qedit.addSample')}
        </Button>
      </Space>
    </Form.Item>
  );
}
