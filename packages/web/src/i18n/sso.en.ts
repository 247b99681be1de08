import type { ssoZh } from './sso.zh.js';

/** English strings of single sign-on (the staff area's tab, the login page's button); spread into the console's dictionaries. */
export const ssoEn: Record<keyof typeof ssoZh, string> = {
  'sso.tab': 'Single sign-on',
  'sso.about':
    "Staff can sign in with the company's identity provider. Their groups there decide their team and role here: an account is made at the first sign-in from its group, and follows the mapping at every sign-in; whoever is in no mapped group is not let in.",
  'sso.notConfigured':
    'Single sign-on (OpenID Connect or SAML) is not set up on this server. The operator sets it in the configuration: see the README.',
  'sso.setup.title': 'Identity provider',
  'sso.setup.oidc': 'OpenID Connect',
  'sso.setup.saml': 'SAML 2.0',
  'sso.setup.issuer': 'Issuer',
  'sso.setup.callback': 'Callback address (register it at the provider)',
  'sso.setup.metadata': 'Metadata address',
  'sso.setup.account': 'Account claim',
  'sso.setup.accountPhone': '{claim} (phone)',
  'sso.setup.accountEmail': '{claim} (e-mail)',
  'sso.setup.groups': 'Groups claim',
  'sso.setup.createAccounts': 'Accounts made at the first sign-in',
  'sso.setup.yes': 'Yes',
  'sso.setup.no': 'No (known accounts only)',
  'sso.groups.title': 'Group mappings',
  'sso.groups.col.group': 'Group at the provider',
  'sso.groups.col.team': 'Team',
  'sso.groups.col.role': 'Role',
  'sso.groups.allTeams': 'Every team (admins)',
  'sso.groups.empty': 'No group mappings yet: without one, nobody is let in through single sign-on',
  'sso.groups.add': 'Add mapping',
  'sso.groups.groupRequired': "Enter the group's name",
  'sso.groups.added': 'Group mapping added',
  'sso.groups.remove': 'Remove',
  'sso.groups.removeConfirm':
    "Remove this mapping? The group's members are refused at their next single sign-on (unless another group maps them).",
  'sso.groups.removed': 'Group mapping removed',
  'sso.groups.removeLabel': 'Remove the mapping of group {group}',
  'sso.policy.title': 'How staff sign in',
  'sso.policy.required': 'Require single sign-on',
  'sso.policy.requiredHint':
    'When on, only the break-glass admins chosen below may still sign in with their password (for when the provider is down).',
  'sso.policy.breakGlass': 'Break-glass admins',
  'sso.policy.save': 'Save',
  'sso.policy.saved': 'Saved',
  'admin.login.sso': 'Sign in with {name}',
  'admin.login.or': 'or with your password',
  'admin.login.ssoRequired': 'This site requires single sign-on; the password is for break-glass admins only.',
};
