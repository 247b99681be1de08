import {
  AREA_CODES,
  DEFAULT_AREA_CODE,
  isValidPhone,
  SMS_RULES,
  type SendMsgQuery,
  userCalls,
} from '@examhall/contract';
import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Flex, Input, Select } from 'antd';
import { Form } from '../../shell/Form.js';
import type { InputRef } from 'antd';
import { useRef, useState } from 'react';
import { errorText, request } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { rememberLoginPhone, useLogin } from '../../session/candidate.js';
import { FormError } from '../../shell/FormError.js';
import { useCountdown } from '../../shell/useCountdown.js';
import { codeNotice } from './codeNotice.js';

interface LoginForm {
  area_code: string;
  phone: string;
  code: string;
}

const codePattern = new RegExp(`^\\d{${SMS_RULES.codeLength}}$`);

/**
 * Logging in by phone and SMS code: the login page's form, and the exam page's when the session ends mid-exam
 * (then the phone is filled in). `onLoggedIn` runs once the new token is stored.
 */
export function PhoneCodeForm(p: { initial?: { area_code: string; phone: string } | null; onLoggedIn: () => void }) {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<LoginForm>();
  const codeInput = useRef<InputRef>(null);
  const countdown = useCountdown();
  const [error, setError] = useState<string | null>(null);

  const areaCodes = useQuery({
    queryKey: ['area-codes'],
    queryFn: ({ signal }) => request(userCalls.areaCodeList, { signal }),
    staleTime: Infinity,
  });
  // Until the list arrives, the contract's own list keeps the form usable.
  const options = (areaCodes.data?.list ?? AREA_CODES).map((a) => ({
    value: a.code,
    label: `+${a.code} ${lang === 'zh-CN' ? a.name_zh : a.name_en}`,
  }));

  const sendCode = useMutation({
    mutationFn: (query: SendMsgQuery) => request(userCalls.sendMsg, { query }),
    onSuccess: (data) => {
      setError(null);
      const notice = codeNotice(data);
      countdown.start(notice.resendAfter);
      const text = t(notice.key, notice.params);
      void (notice.key === 'login.codeQueued'
        ? message.info(text, notice.seconds)
        : message.success(text, notice.seconds));
      codeInput.current?.focus();
    },
    onError: (e) => setError(errorText(e)),
  });

  const login = useLogin();

  const onSend = async () => {
    setError(null);
    try {
      const { phone, area_code } = await form.validateFields(['area_code', 'phone']);
      sendCode.mutate({ phone, area_code });
    } catch {
      // The form shows which field is wrong.
    }
  };

  const onFinish = (values: LoginForm) => {
    setError(null);
    login.mutate(values, {
      onSuccess: () => {
        rememberLoginPhone({ area_code: values.area_code, phone: values.phone });
        p.onLoggedIn();
      },
      onError: (e) => setError(errorText(e)),
    });
  };

  const sending = sendCode.isPending;
  const waiting = countdown.left > 0;

  return (
    <Form<LoginForm>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ area_code: p.initial?.area_code ?? DEFAULT_AREA_CODE, phone: p.initial?.phone ?? '', code: '' }}
      onFinish={onFinish}
      onValuesChange={() => setError(null)}
      data-testid="login-form"
    >
      <Form.Item name="area_code" label={t('login.areaCode')}>
        <Select options={options} showSearch={{ optionFilterProp: 'label' }} data-testid="area-code" />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('login.phone')}
        dependencies={['area_code']}
        rules={[
          { required: true, message: t('login.phoneRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || isValidPhone(String(getFieldValue('area_code')), value.replace(/[\s-]/g, ''))
                ? Promise.resolve()
                : Promise.reject(new Error(t('login.phoneInvalid'))),
          }),
        ]}
        normalize={(v: string) => v.replace(/[^\d\s-]/g, '')}
      >
        <Input
          prefix={<MobileOutlined aria-hidden />}
          inputMode="tel"
          autoComplete="tel-national"
          placeholder={t('login.phonePlaceholder')}
          data-testid="phone-input"
        />
      </Form.Item>
      <Form.Item label={t('login.code')} required>
        <Flex gap={8}>
          <Form.Item
            name="code"
            noStyle
            rules={[
              {
                pattern: codePattern,
                required: true,
                message: t('login.codeInvalid', { n: SMS_RULES.codeLength }),
              },
            ]}
            normalize={(v: string) => v.replace(/\D/g, '').slice(0, SMS_RULES.codeLength)}
          >
            <Input
              ref={codeInput}
              id="login-code"
              aria-label={t('login.code')}
              prefix={<SafetyOutlined aria-hidden />}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={SMS_RULES.codeLength}
              placeholder={t('login.codePlaceholder', { n: SMS_RULES.codeLength })}
              data-testid="code-input"
            />
          </Form.Item>
          <Button
            onClick={() => void onSend()}
            disabled={waiting}
            loading={sending}
            aria-live="polite"
            style={{ minWidth: 136 }}
            data-testid="send-code"
          >
            {waiting ? t('login.resendIn', { s: countdown.left }) : t('login.sendCode')}
          </Button>
        </Flex>
      </Form.Item>
      <FormError error={error} testId="login-error" />
      <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
        {t('login.submit')}
      </Button>
    </Form>
  );
}
