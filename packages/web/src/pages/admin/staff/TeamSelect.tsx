import { Select } from 'antd';
import { useI18n, type MessageKey } from '../../../i18n/index.js';
import { useTeams } from './queries.js';

/** Picks a team or none (null), `noneLabel` naming none; a form control (value/onChange from Form.Item). */
export function TeamSelect(props: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  testId?: string;
  id?: string;
  noneLabel?: MessageKey;
}) {
  const { t } = useI18n();
  const teams = useTeams();
  return (
    <Select<number>
      id={props.id}
      value={props.value ?? -1}
      onChange={(v) => props.onChange?.(v === -1 ? null : v)}
      loading={teams.isPending}
      options={[
        { value: -1, label: t(props.noneLabel ?? 'console.staff.noTeam') },
        ...(teams.data?.list ?? []).map((tm) => ({ value: tm.id, label: tm.name })),
      ]}
      data-testid={props.testId}
    />
  );
}
