import { api, GRADED_SECTIONS, type GradingSetupData, enumOptions, enumText, SECTION_TEXTS } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Col, Row, Select, Switch, Table, Tag } from 'antd';
import { InputNumber } from '../../../shell/InputNumber.js';
import { Form } from '../../../shell/Form.js';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { examStaffKey } from '../exams/queries.js';
import { invalidateGrading } from './queries.js';

type Settings = GradingSetupData['settings'];
type Assign = { staff_id: number; sections: (typeof GRADED_SECTIONS)[number][] };

/** Saves through a call and refreshes the exam's grading views. */
function useSave<T>(save: (v: T) => Promise<unknown>) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: async () => {
      void message.success(t('console.grading.saved'));
      await invalidateGrading(client);
    },
    onError: (e) => void message.error(errorText(e)),
  });
}

/** How the exam is graded (blind, double marking, margin) and who grades which sections. */
export function SetupPanel({ examId, setup }: { examId: number; setup: GradingSetupData }) {
  const { t, lang } = useI18n();
  const settings = useSave((v: Settings) => request(api.gradingSettings, { body: { exam_id: examId, ...v } }));
  const assign = useSave((v: Assign) => request(api.gradingAssign, { body: { exam_id: examId, ...v } }));
  const sectionOptions = enumOptions(SECTION_TEXTS, GRADED_SECTIONS, lang);
  // The graders the caller may assign: the exam's team's (every one for an admin), enabled ones first.
  const staff = useQuery({
    queryKey: examStaffKey(examId),
    queryFn: ({ signal }) => request(api.examStaffList, { query: { exam_id: examId }, signal }),
  });
  const graderOptions = (staff.data?.assignable ?? [])
    .filter((m) => m.role === 'grader')
    .sort((a, b) => Number(a.disabled) - Number(b.disabled))
    .map((m) => ({ value: m.staff_id, label: m.name, disabled: m.disabled }));
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={10}>
        <Card title={t('console.grading.settings')}>
          <Form<Settings>
            layout="vertical"
            initialValues={setup.settings}
            onFinish={(v) => settings.mutate(v)}
            data-testid="grading-settings"
          >
            <Form.Item name="blind" label={t('console.grading.blind')} valuePropName="checked">
              <Switch data-testid="setting-blind" />
            </Form.Item>
            <Form.Item name="double_marking" label={t('console.grading.double')} valuePropName="checked">
              <Switch data-testid="setting-double" />
            </Form.Item>
            <Form.Item
              name="margin"
              label={t('console.grading.margin')}
              extra={t('console.grading.marginHelp')}
              rules={[{ required: true, type: 'number', min: 0, max: 1000 }]}
              validateTrigger="onChange"
            >
              <InputNumber min={0} max={1000} step={0.5} data-testid="setting-margin" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={settings.isPending} data-testid="settings-save">
              {t('console.grading.save')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Card title={t('console.grading.assign')}>
          <Table
            rowKey="staff_id"
            size="small"
            dataSource={setup.graders}
            pagination={false}
            columns={[
              { title: t('console.grading.graders'), dataIndex: 'name' },
              {
                title: t('console.grading.sections'),
                key: 'sections',
                render: (_, g) =>
                  g.sections.length === 0 ? (
                    <Tag>{t('console.grading.wholeExam')}</Tag>
                  ) : (
                    g.sections.map((s) => <Tag key={s}>{enumText(SECTION_TEXTS, s, lang)}</Tag>)
                  ),
              },
            ]}
          />
          <Form<Assign>
            layout="inline"
            style={{ marginTop: 16 }}
            initialValues={{ sections: [] }}
            onFinish={(v) => assign.mutate(v)}
            data-testid="grading-assign"
          >
            <Form.Item
              name="staff_id"
              label={t('console.grading.staffId')}
              rules={[{ required: true, message: t('console.grading.pickGrader') }]}
              validateTrigger="onChange"
            >
              <Select<number>
                showSearch={{ optionFilterProp: 'label' }}
                options={graderOptions}
                loading={staff.isPending}
                placeholder={t('console.grading.pickGrader')}
                notFoundContent={t('console.grading.noGraderAccounts')}
                style={{ minWidth: 200 }}
                data-testid="assign-staff"
              />
            </Form.Item>
            <Form.Item name="sections">
              <Checkbox.Group options={sectionOptions} />
            </Form.Item>
            <Button htmlType="submit" loading={assign.isPending} data-testid="assign-submit">
              {t('console.grading.assign')}
            </Button>
          </Form>
        </Card>
      </Col>
    </Row>
  );
}
