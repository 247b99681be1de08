import {
  AUDIT_ACTION_TEXTS,
  AUDIT_ACTIONS,
  AUDIT_OBJECT_KINDS,
  AUDIT_OBJECT_TEXTS,
  enumOptions,
} from '@examhall/contract';
import { Button, DatePicker, Select, Space } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { useEffect } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { intParam, textParam, type ParamValue } from '../shared/listParams.js';
import { fromPicker, toPicker } from '../shared/serverClock.js';
import { useStaffList } from '../staff/queries.js';
import type { Dayjs } from 'dayjs';

interface FilterForm {
  actor_id?: number;
  action?: string;
  object_kind?: string;
  object_id?: number | null;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The audit log's filters (person, action, object, time range), applied on Search or Enter and kept in the address. */
export function AuditFilters({
  params,
  setFilters,
}: {
  params: URLSearchParams;
  setFilters: (patch: Readonly<Record<string, ParamValue>>) => void;
}) {
  const { t, lang } = useI18n();
  const me = useStaffMe();
  const staff = useStaffList();
  const [form] = Form.useForm<FilterForm>();

  // The address is the truth: a link, the back button or a click on a name in the table updates the form.
  useEffect(() => {
    form.setFieldsValue({
      actor_id: intParam(params, 'actor_id'),
      action: textParam(params, 'action'),
      object_kind: textParam(params, 'object_kind'),
      object_id: intParam(params, 'object_id') ?? null,
      range:
        params.has('from') || params.has('to')
          ? [toPicker(intParam(params, 'from')), toPicker(intParam(params, 'to'))]
          : null,
    });
  }, [params, form]);

  const apply = (v: FilterForm) =>
    setFilters({
      actor_id: v.actor_id,
      action: v.action?.trim(),
      object_kind: v.object_kind?.trim(),
      object_id: v.object_id ?? undefined,
      from: fromPicker(v.range?.[0]),
      to: fromPicker(v.range?.[1]),
    });
  const clear = () => {
    form.resetFields();
    setFilters({ actor_id: null, action: null, object_kind: null, object_id: null, from: null, to: null });
  };

  return (
    <Form<FilterForm>
      form={form}
      layout="inline"
      onFinish={apply}
      style={{ marginBottom: 16, rowGap: 8 }}
      data-testid="audit-filters"
    >
      {can(me.data, 'staff.read') && (
        <Form.Item name="actor_id" label={t('console.audit.actor')}>
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 180 }}
            loading={staff.isPending}
            onChange={() => form.submit()}
            options={(staff.data?.list ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.phone})` }))}
            data-testid="audit-filter-actor"
          />
        </Form.Item>
      )}
      <Form.Item name="action" label={t('console.audit.action')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 220 }}
          onChange={() => form.submit()}
          options={enumOptions(AUDIT_ACTION_TEXTS, AUDIT_ACTIONS, lang)}
          data-testid="audit-filter-action"
        />
      </Form.Item>
      <Form.Item name="object_kind" label={t('console.audit.objectKind')}>
        <Select
          allowClear
          style={{ width: 140 }}
          onChange={() => form.submit()}
          options={enumOptions(AUDIT_OBJECT_TEXTS, AUDIT_OBJECT_KINDS, lang)}
          data-testid="audit-filter-kind"
        />
      </Form.Item>
      <Form.Item name="object_id" label={t('console.audit.objectId')}>
        <InputNumber min={1} precision={0} style={{ width: 110 }} data-testid="audit-filter-object" />
      </Form.Item>
      <Form.Item name="range" label={t('console.audit.range')}>
        <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" data-testid="audit-filter-apply">
          {t('console.common.search')}
        </Button>
        <Button onClick={clear}>{t('console.common.reset')}</Button>
      </Space>
    </Form>
  );
}
