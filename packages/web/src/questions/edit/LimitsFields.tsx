import { CODE_LIMITS } from '@examhall/contract';
import { Space } from 'antd';
import { InputNumber } from '../../shell/InputNumber.js';
import { useI18n } from '../../i18n/index.js';
import type { ProgrammingContentDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';

/** CPU time per case and memory, within the contract's bounds. */
export function LimitsFields({
  content,
  onChange,
  problems,
  idPrefix,
}: {
  content: ProgrammingContentDraft;
  onChange: (patch: Pick<ProgrammingContentDraft, 'time_limit_ms' | 'memory_limit_mb'>) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  const limits = { time_limit_ms: content.time_limit_ms, memory_limit_mb: content.memory_limit_mb };
  return (
    <Space wrap size="large">
      <Field
        label={t('qedit.timeLimit')}
        field="content.time_limit_ms"
        problems={problems}
        htmlFor={`${idPrefix}-time`}
      >
        <InputNumber
          id={`${idPrefix}-time`}
          value={content.time_limit_ms}
          min={CODE_LIMITS.timeMs.min}
          max={CODE_LIMITS.timeMs.max}
          step={100}
          precision={0}
          onChange={(v) => onChange({ ...limits, time_limit_ms: v })}
          data-testid="time-limit"
        />
      </Field>
      <Field
        label={t('qedit.memoryLimit')}
        field="content.memory_limit_mb"
        problems={problems}
        htmlFor={`${idPrefix}-memory`}
      >
        <InputNumber
          id={`${idPrefix}-memory`}
          value={content.memory_limit_mb}
          min={CODE_LIMITS.memoryMb.min}
          max={CODE_LIMITS.memoryMb.max}
          step={32}
          precision={0}
          onChange={(v) => onChange({ ...limits, memory_limit_mb: v })}
          data-testid="memory-limit"
        />
      </Field>
    </Space>
  );
}
