import {
  CandidateCreateBody,
  DEFAULT_AREA_CODE,
  DEGREES,
  EmailField,
  GRADUATION_YEARS,
  isValidPhone,
  PhoneField,
  PROFILE_TEXT_MAX,
  type CandidateView,
} from '@examhall/contract';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Input, Modal, Select, Space } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { useEffect, useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';
import { useSaveCandidate } from './queries.js';
import { AreaCodeSelect } from '../shared/AreaCodeSelect.js';

/** The form's fields (custom fields as rows, so that a column can be renamed). */
interface CandidateForm {
  area_code: string;
  phone: string;
  name: string;
  email: string;
  school: string;
  major: string;
  /** A degree's code; none is undefined, so that the choice shows as empty. */
  degree: string | undefined;
  graduation_year: number | null;
  custom: { key: string; value: string }[];
}

/** The form's values for a candidate (empty for a new one). */
function initialOf(c: CandidateView | null): CandidateForm {
  return {
    area_code: c?.area_code ?? DEFAULT_AREA_CODE,
    phone: c?.phone ?? '',
    name: c?.name ?? '',
    email: c?.email ?? '',
    school: c?.school ?? '',
    major: c?.major ?? '',
    degree: c?.degree || undefined,
    graduation_year: c?.graduation_year ?? null,
    custom: Object.entries(c?.custom ?? {}).map(([key, value]) => ({ key, value })),
  };
}

/** Custom field rows: a column name and its value each, validated as the author types. */
function CustomFields() {
  const { t } = useI18n();
  return (
    <Form.List name="custom">
      {(fields, { add, remove }) => (
        <>
          {fields.map((f) => (
            <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
              <Form.Item
                name={[f.name, 'key']}
                rules={[{ required: true, whitespace: true, message: t('cand.form.customKey') }]}
              >
                <Input placeholder={t('cand.form.customKey')} maxLength={50} aria-label={t('cand.form.customKey')} />
              </Form.Item>
              <Form.Item name={[f.name, 'value']}>
                <Input
                  placeholder={t('cand.form.customValue')}
                  maxLength={200}
                  aria-label={t('cand.form.customValue')}
                />
              </Form.Item>
              <Button
                type="text"
                icon={<MinusCircleOutlined aria-hidden />}
                onClick={() => remove(f.name)}
                aria-label={t('cand.form.customRemove')}
              />
            </Space>
          ))}
          <Button type="dashed" onClick={() => add({ key: '', value: '' })} icon={<PlusOutlined aria-hidden />}>
            {t('cand.form.customAdd')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/** Adds a candidate (`candidate` null) or edits one; every field is checked by the contract's rules as typed. */
export function CandidateFormModal(props: { open: boolean; candidate: CandidateView | null; onClose: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<CandidateForm>();
  const [error, setError] = useState<string | null>(null);
  const save = useSaveCandidate();
  useEffect(() => {
    if (props.open) {
      form.setFieldsValue(initialOf(props.candidate));
      setError(null);
    }
  }, [props.open, props.candidate, form]);
  const submit = (v: CandidateForm) => {
    const body = CandidateCreateBody.safeParse({
      ...v,
      custom: Object.fromEntries(v.custom.map((c) => [c.key.trim(), c.value ?? ''])),
    });
    if (!body.success) return setError(body.error.issues[0]?.message ?? 'invalid');
    save.mutate(
      { id: props.candidate?.id ?? null, body: body.data },
      {
        onSuccess: (c) => {
          void message.success(t('cand.form.saved', { name: c.name }));
          props.onClose();
        },
        onError: (e) => setError(errorText(e)),
      },
    );
  };
  const areaCode = Form.useWatch('area_code', form) ?? DEFAULT_AREA_CODE;
  return (
    <Modal
      open={props.open}
      title={props.candidate ? t('cand.edit') : t('cand.add')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okText={t('console.common.save')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<CandidateForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        validateTrigger={['onChange', 'onBlur']}
        data-testid="candidate-form"
      >
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="area_code" label={t('cand.form.areaCode')} style={{ width: 180 }}>
            <AreaCodeSelect />
          </Form.Item>
          <Form.Item
            name="phone"
            label={t('cand.col.phone')}
            style={{ flex: 1 }}
            dependencies={['area_code']}
            rules={[
              { required: true, message: t('login.phoneRequired') },
              zodRule(
                PhoneField.refine((p) => isValidPhone(areaCode, p)),
                t('login.phoneInvalid'),
              ),
            ]}
          >
            <Input inputMode="tel" autoComplete="off" data-testid="candidate-phone" />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          name="name"
          label={t('cand.col.name')}
          required
          rules={[{ required: true, whitespace: true, message: t('cand.form.nameRequired') }]}
        >
          <Input maxLength={PROFILE_TEXT_MAX} data-testid="candidate-name" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('cand.col.email')}
          rules={[zodRule(EmailField, t('cand.form.emailInvalid'), (v) => v ?? '')]}
        >
          <Input inputMode="email" data-testid="candidate-email" />
        </Form.Item>
        <Form.Item name="school" label={t('cand.col.school')}>
          <Input maxLength={PROFILE_TEXT_MAX} />
        </Form.Item>
        <Space>
          <Form.Item name="major" label={t('cand.col.major')}>
            <Input maxLength={PROFILE_TEXT_MAX} />
          </Form.Item>
          {/* The candidate's own profile form offers the same degrees: both store the code. */}
          <Form.Item name="degree" label={t('cand.col.degree')}>
            <Select
              allowClear
              style={{ width: 140 }}
              options={DEGREES.map((d) => ({ value: d, label: t(`profile.degree.${d}`) }))}
              data-testid="candidate-degree"
            />
          </Form.Item>
          <Form.Item
            name="graduation_year"
            label={t('cand.col.year')}
            rules={[
              {
                type: 'integer',
                min: GRADUATION_YEARS.min,
                max: GRADUATION_YEARS.max,
                message: t('cand.form.yearInvalid'),
              },
            ]}
          >
            <InputNumber style={{ width: 120 }} />
          </Form.Item>
        </Space>
        <CustomFields />
        <FormError error={error} testId="candidate-form-error" />
      </Form>
    </Modal>
  );
}
