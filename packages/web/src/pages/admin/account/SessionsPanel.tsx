/**
 * Where an account is signed in: each session's device, address, how and when it was signed in to and last used,
 * and a button that ends it. Without `staffId`, the caller's own sessions (ending the current one signs out);
 * with it, another account's, for an admin.
 */
import { api, enumText, SIGN_IN_METHOD_TEXTS, type StaffSession } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, List, Popconfirm, Tag, Typography } from 'antd';
import { errorText, request } from '../../../api/client.js';
import { useI18n, type MessageKey } from '../../../i18n/index.js';
import { useStaffLogout } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { summarizeBrowser } from './browser.js';

/** Query key of an account's sessions (`own` for the caller's). */
const sessionsKey = (staffId: number | 'own') => ['staff-sessions', staffId] as const;

/** Apps known by another name in Chinese. */
const LOCAL_NAMES = new Set(['WeChat', 'WeCom', 'DingTalk', 'Feishu', 'QQ Browser', 'UC Browser']);

export function SessionsPanel({ staffId }: { staffId?: number }) {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const logout = useStaffLogout();
  const key = sessionsKey(staffId ?? 'own');
  const sessions = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      staffId === undefined
        ? request(api.staffSessions, { signal })
        : request(api.staffSessionsOf, { query: { id: staffId }, signal }),
  });
  const end = useMutation({
    mutationFn: (session: StaffSession) =>
      staffId === undefined
        ? request(api.staffSessionEnd, { body: { session: session.session } })
        : request(api.staffSessionEndOf, { body: { id: staffId, session: session.session } }),
    onSuccess: async (_data, session) => {
      // The current session ended: this browser is signed out.
      if (session.current) {
        logout.mutate();
        return;
      }
      void message.success(t('admin.sessions.ended'));
      await queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (e) => void message.error(errorText(e)),
  });

  const device = (s: StaffSession) => {
    const { browser, system } = summarizeBrowser(s.user_agent);
    const browserName =
      browser === null
        ? t('admin.sessions.unknownBrowser')
        : LOCAL_NAMES.has(browser)
          ? t(`admin.sessions.app.${browser}` as MessageKey)
          : browser;
    return t('admin.sessions.device', { browser: browserName, system: system ?? t('admin.sessions.unknownSystem') });
  };

  return (
    <section aria-labelledby={`sessions-title-${staffId ?? 'own'}`} data-testid="sessions-panel">
      <Typography.Title level={2} id={`sessions-title-${staffId ?? 'own'}`} style={{ fontSize: 18 }}>
        {t('admin.sessions.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t(staffId === undefined ? 'admin.sessions.hint' : 'admin.sessions.hintOther')}
      </Typography.Paragraph>
      {sessions.isError && <Alert type="error" showIcon title={errorText(sessions.error)} />}
      <List<StaffSession>
        size="small"
        bordered
        loading={sessions.isPending}
        dataSource={sessions.data?.list ?? []}
        locale={{ emptyText: t('admin.sessions.empty') }}
        data-testid="sessions-list"
        renderItem={(s) => (
          <List.Item
            data-testid={`session-${s.session}`}
            actions={[
              <Popconfirm
                key="end"
                title={t(s.current ? 'admin.sessions.endCurrentConfirm' : 'admin.sessions.endConfirm')}
                okText={t('admin.sessions.end')}
                okButtonProps={{ danger: true }}
                cancelText={t('console.common.cancel')}
                onConfirm={() => end.mutate(s)}
              >
                <Button
                  size="small"
                  danger
                  loading={end.isPending && end.variables?.session === s.session}
                  aria-describedby={`session-device-${s.session}`}
                  data-testid={`session-end-${s.session}`}
                >
                  {t('admin.sessions.end')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={
                <span id={`session-device-${s.session}`} title={s.user_agent ?? undefined}>
                  {device(s)}{' '}
                  {s.current && (
                    <Tag color="green" data-testid="session-current">
                      {t('admin.sessions.current')}
                    </Tag>
                  )}
                </span>
              }
              description={
                <Descriptions size="small" column={2} colon={false}>
                  <Descriptions.Item label={t('admin.sessions.col.ip')}>
                    {s.ip ?? t('admin.sessions.unknown')}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('admin.sessions.col.method')}>
                    {s.method === null ? t('admin.sessions.unknown') : enumText(SIGN_IN_METHOD_TEXTS, s.method, lang)}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('admin.sessions.col.created')}>
                    {serverTime(s.created_at)}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('admin.sessions.col.seen')}>
                    {s.last_seen_at === null ? t('admin.sessions.unknown') : serverTime(s.last_seen_at)}
                  </Descriptions.Item>
                </Descriptions>
              }
            />
          </List.Item>
        )}
      />
    </section>
  );
}
