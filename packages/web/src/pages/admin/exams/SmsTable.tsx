import { SMS_STATES, type SmsEntry, type SmsListQuery, type SmsState } from '@examhall/contract';
import { App, Button, Empty, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { errorText } from '../../../api/client.js';
import { PhoneSearch } from '../shared/PhoneSearch.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { useListQuery } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';
import { limitText, resendMessage } from './heldTexts.js';
import { useResend, useSmsList } from './invitationQueries.js';

/** Each state's tag colour. */
const STATE_COLOR: Record<SmsState, string> = {
  queued: 'blue',
  sending: 'processing',
  sent: 'green',
  failed: 'red',
  cancelled: 'default',
  held: 'orange',
};

/**
 * The exam's texts, newest first, paged and filtered on the server, with how many are in each state (a text the
 * budgets held back shows why); selected texts' invitations get their link again.
 */
export function SmsTable({ examId, readOnly }: { examId: number; readOnly: boolean }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const { query, set, table } = useListQuery<SmsListQuery>({ exam_id: examId });
  const [selected, setSelected] = useState<SmsEntry[]>([]);
  const list = useSmsList(query);
  const resend = useResend();
  const setState = (state: SmsState | undefined) => set({ state });
  const resendSelected = () => {
    const anids = [...new Set(selected.map((s) => s.anid))];
    resend.mutate(
      { exam_id: examId, anids },
      {
        onSuccess: (r) => {
          const said = resendMessage(t, r);
          void (said.held ? message.warning(said.text) : message.success(said.text));
          setSelected([]);
        },
        onError: (e) => void message.error(errorText(e)),
      },
    );
  };
  const columns: TableColumnsType<SmsEntry> = [
    { title: t('console.sms.col.phone'), key: 'phone', render: (_, s) => `+${s.area_code} ${s.phone}` },
    { title: t('console.sms.col.purpose'), key: 'purpose', render: (_, s) => t(`console.sms.purpose.${s.purpose}`) },
    {
      title: t('console.sms.col.state'),
      key: 'state',
      render: (_, s) => (
        <Space size={4} wrap>
          <Tag color={STATE_COLOR[s.state]}>{t(`console.sms.state.${s.state}`)}</Tag>
          {s.state === 'held' && s.held_by && (
            <Typography.Text type="secondary" data-testid="sms-held-reason">
              {limitText(t, s.held_by)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('console.sms.col.tries'), dataIndex: 'tries', key: 'tries' },
    {
      title: t('console.sms.col.when'),
      key: 'when',
      render: (_, s) =>
        s.sent_at !== null
          ? t('console.sms.sentAt', { time: serverTime(s.sent_at) })
          : s.state === 'queued' || s.state === 'sending'
            ? t('console.sms.nextTry', { time: serverTime(s.next_try_at) })
            : serverTime(s.created_at),
    },
    {
      title: t('console.sms.col.error'),
      key: 'error',
      render: (_, s) => (s.last_error ? <Typography.Text type="danger">{s.last_error}</Typography.Text> : '—'),
    },
  ];
  if (list.isError) return <LoadError error={list.error} />;
  const counts = list.data?.counts;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="sms-table">
      <Space wrap data-testid="sms-counts">
        {SMS_STATES.map((s) => (
          <Tag.CheckableTag key={s} checked={query.state === s} onChange={(on) => setState(on ? s : undefined)}>
            {t(`console.sms.state.${s}`)} {counts?.[s] ?? 0}
          </Tag.CheckableTag>
        ))}
      </Space>
      <Space wrap>
        <PhoneSearch label={t('console.sms.col.phone')} onSearch={(phone) => set({ phone })} testId="sms-phone" />
        <Select
          style={{ width: 160 }}
          aria-label={t('console.sms.col.state')}
          value={query.state ?? ''}
          onChange={(v: SmsState | '') => setState(v === '' ? undefined : v)}
          options={[
            { value: '', label: t('console.sms.anyState') },
            ...SMS_STATES.map((s) => ({ value: s, label: t(`console.sms.state.${s}`) })),
          ]}
        />
        {!readOnly && (
          <Button
            disabled={selected.length === 0}
            loading={resend.isPending}
            onClick={resendSelected}
            data-testid="sms-resend"
          >
            {t('console.invitations.resendSelected', { n: selected.length })}
          </Button>
        )}
      </Space>
      <ServerTable
        size="small"
        columns={columns}
        list={list}
        state={table}
        total={false}
        rowSelection={
          readOnly
            ? undefined
            : { selectedRowKeys: selected.map((s) => s.id), onChange: (_k, rows) => setSelected(rows) }
        }
        empty={<Empty description={query.state || query.phone ? t('console.sms.noneMatch') : t('console.sms.none')} />}
      />
    </Space>
  );
}
