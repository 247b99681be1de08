import { DEGREES, GRADUATION_YEARS, PROFILE_TEXT_MAX, type MyInfoBody, examCalls } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, AutoComplete, Button, Card, Input, Radio, Skeleton, Typography } from 'antd';
import { InputNumber } from '../../shell/InputNumber.js';
import { Form } from '../../shell/Form.js';
import { useDeferredValue, useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { errorText, request } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { useI18n } from '../../i18n/index.js';
import { USER_INFO_KEY } from '../../session/candidate.js';
import { safeRedirect } from '../../session/redirect.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { ResumeField } from './ResumeField.js';

const MY_INFO_KEY = ['my-info'] as const;

/** The candidate profile and resume; with `redirect` it leads back to the exam after saving. */
export default function ProfilePage() {
  const { t } = useI18n();
  useDocumentTitle(t('profile.pageTitle'));
  const { message } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = params.get('redirect');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MyInfoBody>();
  const [schoolKeyword, setSchoolKeyword] = useState('');
  const keyword = useDeferredValue(schoolKeyword.trim());

  const info = useQuery({ queryKey: MY_INFO_KEY, queryFn: ({ signal }) => request(examCalls.myInfo, { signal }) });
  const majors = useQuery({
    queryKey: ['majors'],
    queryFn: ({ signal }) => request(examCalls.majors, { signal }),
    staleTime: Infinity,
  });
  const colleges = useQuery({
    queryKey: ['colleges', keyword],
    queryFn: ({ signal }) => request(examCalls.colleges, { query: { type: 'college', keyword }, signal }),
    staleTime: 5 * 60_000,
    placeholderData: (prev) => prev,
  });

  useEffect(() => {
    if (!info.data) return;
    const d = info.data;
    form.setFieldsValue({
      name: d.name ?? '',
      school: d.school ?? '',
      major: d.major ?? '',
      ...(d.degree ? { degree: d.degree } : {}),
      ...(d.graduation_year ? { graduation_year: d.graduation_year } : {}),
    });
  }, [info.data, form]);

  const save = useMutation({
    mutationFn: (body: MyInfoBody) => request(examCalls.saveMyInfo, { body }),
    onSuccess: async (data) => {
      queryClient.setQueryData(MY_INFO_KEY, data);
      // The entry page decides on `info`; a stale copy saying 'incomplete' would send the candidate back here.
      queryClient.removeQueries({ queryKey: USER_INFO_KEY });
      void message.success(t('profile.saved'));
      if (redirectTo) await navigate(safeRedirect(redirectTo, '/exams'), { replace: true });
    },
  });

  if (currentAuth() === null) {
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }

  const majorOptions = (majors.data?.list ?? []).map((g) => ({
    label: g.category,
    options: g.majors.map((m) => ({ value: m, label: m })),
  }));

  return (
    <div className="page-body">
      <Card>
        <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
          {t('profile.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          {redirectTo ? t('entry.profileFirst') : t('profile.hint')}
        </Typography.Paragraph>
        {info.isError && <Alert type="error" showIcon title={t('common.loadFailed', { msg: errorText(info.error) })} />}
        {info.isPending ? (
          <Skeleton active />
        ) : (
          <Form<MyInfoBody>
            form={form}
            layout="vertical"
            requiredMark
            onFinish={(v) => save.mutate({ ...v, graduation_year: Number(v.graduation_year) })}
            data-testid="profile-form"
          >
            <Form.Item
              name="name"
              label={t('profile.name')}
              rules={[{ required: true, whitespace: true, message: t('profile.nameRequired') }]}
            >
              <Input autoComplete="name" maxLength={PROFILE_TEXT_MAX} data-testid="profile-name" />
            </Form.Item>
            <Form.Item
              name="school"
              label={t('profile.school')}
              rules={[{ required: true, whitespace: true, message: t('profile.schoolRequired') }]}
            >
              <AutoComplete
                options={(colleges.data?.list ?? []).map((c) => ({
                  value: c.name,
                  label: (
                    <>
                      {c.name} · {c.city}
                    </>
                  ),
                }))}
                onSearch={setSchoolKeyword}
                placeholder={t('profile.schoolPlaceholder')}
                maxLength={PROFILE_TEXT_MAX}
                data-testid="profile-school"
              />
            </Form.Item>
            <Form.Item
              name="major"
              label={t('profile.major')}
              rules={[{ required: true, whitespace: true, message: t('profile.majorRequired') }]}
            >
              <AutoComplete
                options={majorOptions}
                showSearch={{
                  filterOption: (input, option) =>
                    !!option && 'value' in option && String(option.value).toLowerCase().includes(input.toLowerCase()),
                }}
                maxLength={PROFILE_TEXT_MAX}
                data-testid="profile-major"
              />
            </Form.Item>
            <Form.Item
              name="degree"
              label={t('profile.degree')}
              rules={[{ required: true, message: t('profile.degreeRequired') }]}
            >
              <Radio.Group
                optionType="button"
                options={DEGREES.map((d) => ({ value: d, label: t(`profile.degree.${d}`) }))}
                data-testid="profile-degree"
              />
            </Form.Item>
            <Form.Item
              name="graduation_year"
              label={t('profile.graduationYear')}
              rules={[
                {
                  required: true,
                  type: 'number',
                  min: GRADUATION_YEARS.min,
                  max: GRADUATION_YEARS.max,
                  message: t('profile.graduationYearRequired'),
                },
              ]}
            >
              <InputNumber
                min={GRADUATION_YEARS.min}
                max={GRADUATION_YEARS.max}
                precision={0}
                style={{ width: 160 }}
                data-testid="profile-year"
              />
            </Form.Item>

            <ResumeField initial={info.data?.resume ?? null} />

            {save.isError && (
              <Alert
                type="error"
                showIcon
                role="alert"
                title={t('profile.saveFailed', { msg: errorText(save.error) })}
                style={{ margin: '16px 0' }}
              />
            )}
            <Button
              type="primary"
              htmlType="submit"
              loading={save.isPending}
              style={{ marginTop: 16 }}
              data-testid="profile-save"
            >
              {redirectTo ? t('profile.saveAndContinue') : t('profile.save')}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
