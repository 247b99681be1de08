import type { accountZh } from './account.zh.js';

/** English strings of the staff member's own account (second factor, sessions); spread into the console's dictionaries. */
export const accountEn: Record<keyof typeof accountZh, string> = {
  'admin.sessions.title': 'Signed-in sessions',
  'admin.sessions.hint':
    'These devices are signed in to your account. End any session you do not recognise at once, and change your password.',
  'admin.sessions.hintOther': 'These devices are signed in to this account. An ended session must sign in again.',
  'admin.sessions.col.ip': 'Address',
  'admin.sessions.col.method': 'Signed in with',
  'admin.sessions.col.created': 'Signed in',
  'admin.sessions.col.seen': 'Last used',
  'admin.sessions.device': '{browser} on {system}',
  'admin.sessions.unknownBrowser': 'Unknown browser',
  'admin.sessions.unknownSystem': 'an unknown system',
  'admin.sessions.unknown': 'Not recorded',
  'admin.sessions.current': 'This session',
  'admin.sessions.end': 'End',
  'admin.sessions.endConfirm': 'End this session? That device will have to sign in again.',
  'admin.sessions.endCurrentConfirm': 'This is the session you are using: ending it signs you out. Go on?',
  'admin.sessions.ended': 'Session ended',
  'admin.sessions.empty': 'No signed-in sessions',
  'admin.sessions.app.WeChat': 'WeChat',
  'admin.sessions.app.WeCom': 'WeCom',
  'admin.sessions.app.DingTalk': 'DingTalk',
  'admin.sessions.app.Feishu': 'Feishu',
  'admin.sessions.app.QQ Browser': 'QQ Browser',
  'admin.sessions.app.UC Browser': 'UC Browser',
  'admin.account.open': 'Account security',
  'admin.account.title': 'Account security',
};
