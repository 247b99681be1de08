import {
  api,
  EXAM_STAFF_ROLES,
  type ExamStaffRole,
  type ExamStaffView,
  enumOptions,
  enumText,
  ROLE_TEXTS,
} from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Popconfirm, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { examStaffKey } from './queries.js';

/** The proctors and graders assigned to the exam, and assigning more. */
export function StaffPanel({ examId, readOnly }: { examId: number; readOnly: boolean }) {
  const { t, lang } = useI18n();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: examStaffKey(examId),
    queryFn: ({ signal }) => request(api.examStaffList, { query: { exam_id: examId }, signal }),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: examStaffKey(examId) });
  const assign = useMutation({
    mutationFn: (b: { staff_id: number; role: ExamStaffRole }) =>
      request(api.examStaffAssign, { body: { exam_id: examId, ...b } }),
    onSuccess: refresh,
  });
  const unassign = useMutation({
    mutationFn: (b: { staff_id: number; role: ExamStaffRole }) =>
      request(api.examStaffUnassign, { body: { exam_id: examId, ...b } }),
    onSuccess: refresh,
  });
  const [role, setRole] = useState<ExamStaffRole>('proctor');
  const [who, setWho] = useState<number | undefined>(undefined);
  const assigned = new Set((list.data?.list ?? []).map((a) => `${a.role}:${a.staff_id}`));
  const candidates = (list.data?.assignable ?? []).filter(
    (m) => m.role === role && !assigned.has(`${role}:${m.staff_id}`),
  );

  const columns: TableColumnsType<ExamStaffView> = [
    {
      title: t('staff.col.name'),
      dataIndex: 'name',
      render: (name: string, a) => (
        <>
          {name} {a.disabled && <Tag>{t('staff.status.disabled')}</Tag>}
        </>
      ),
    },
    { title: t('staff.col.role'), dataIndex: 'role', render: (r: ExamStaffRole) => enumText(ROLE_TEXTS, r, lang) },
    { title: t('console.exams.assignedAt'), dataIndex: 'created_at', render: (ms: number) => serverTime(ms) },
  ];
  if (!readOnly) {
    columns.push({
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, a) => (
        <Popconfirm
          title={t('console.exams.unassignTitle', { name: a.name })}
          okText={t('console.exams.unassign')}
          cancelText={t('console.common.cancel')}
          onConfirm={() => unassign.mutate({ staff_id: a.staff_id, role: a.role })}
        >
          <Button size="small" danger>
            {t('console.exams.unassign')}
          </Button>
        </Popconfirm>
      ),
    });
  }
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%', maxWidth: 800 }} data-testid="exam-staff">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('console.exams.staffHint')}
      </Typography.Paragraph>
      <LoadError error={list.error} />
      {!readOnly && (
        <Space wrap>
          <Select<ExamStaffRole>
            value={role}
            onChange={(r) => {
              setRole(r);
              setWho(undefined);
            }}
            aria-label={t('staff.col.role')}
            style={{ width: 120 }}
            options={enumOptions(ROLE_TEXTS, EXAM_STAFF_ROLES, lang)}
          />
          <Select<number>
            value={who}
            onChange={setWho}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('console.exams.pickStaff')}
            aria-label={t('console.exams.pickStaff')}
            style={{ width: 220 }}
            notFoundContent={t('console.exams.noAssignable', { role: enumText(ROLE_TEXTS, role, lang) })}
            options={candidates.map((m) => ({ value: m.staff_id, label: m.name, disabled: m.disabled }))}
            data-testid="exam-staff-pick"
          />
          <Button
            type="primary"
            disabled={who === undefined}
            loading={assign.isPending}
            onClick={() =>
              who !== undefined && assign.mutate({ staff_id: who, role }, { onSuccess: () => setWho(undefined) })
            }
            data-testid="exam-staff-assign"
          >
            {t('console.exams.assign')}
          </Button>
        </Space>
      )}
      {(assign.isError || unassign.isError) && (
        <Alert type="error" showIcon title={errorText(assign.error ?? unassign.error)} />
      )}
      <Table<ExamStaffView>
        rowKey={(a) => `${a.role}:${a.staff_id}`}
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isPending}
        pagination={false}
        locale={{ emptyText: <Empty description={t('console.exams.noStaff')} /> }}
      />
    </Space>
  );
}
