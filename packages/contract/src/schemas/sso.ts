import { z } from 'zod';
import { STAFF_ROLES } from '../enums.js';
import { EpochMs } from './common.js';
import { Id } from './ids.js';

/** An identity provider the staff login page offers, by the name its users know it by. */
export const SsoProviderView = z.object({
  /** The name on the button ("Sign in with <name>"). */
  name: z.string(),
  /** Where the browser goes to start signing in (under the API prefix). */
  start_path: z.string(),
});
/** An identity provider offered on the login page. */
export type SsoProviderView = z.infer<typeof SsoProviderView>;

/** GET /admin/auth/sso data: which single sign-on the login page offers, and whether the password form is for break-glass admins only. */
export const SsoOptionsData = z.object({
  /** OpenID Connect, when set up. */
  oidc: SsoProviderView.nullable(),
  /** SAML 2.0, when set up. */
  saml: SsoProviderView.nullable(),
  /** True when staff must sign in with single sign-on; only break-glass admins may use their password. */
  required: z.boolean(),
});
/** GET /admin/auth/sso data. */
export type SsoOptionsData = z.infer<typeof SsoOptionsData>;

/** GET /admin/auth/oidc/start and /admin/auth/saml/start query: where the console goes once signed in. */
export const SsoStartQuery = z.object({
  /** A console path (`/admin/...`); anything else leads to the console's home. */
  redirect: z.string().max(500).optional(),
});
/** The start calls' query. */
export type SsoStartQuery = z.input<typeof SsoStartQuery>;

/** GET /admin/auth/oidc/callback query: the provider's answer (the whole address is checked by the OpenID client). */
export const OidcCallbackQuery = z.looseObject({
  /** The authorization code. */
  code: z.string().max(2000).optional(),
  /** The state this server sent; it must be the one this browser holds. */
  state: z.string().max(200).optional(),
  /** The provider's refusal, when it refused. */
  error: z.string().max(200).optional(),
});
/** The OpenID Connect callback's query. */
export type OidcCallbackQuery = z.input<typeof OidcCallbackQuery>;

/** POST /admin/auth/saml/acs body: the identity provider's response, posted by the browser (HTTP-POST binding). */
export const SamlAcsBody = z.object({
  /** The base64 SAML response. */
  SAMLResponse: z.string().min(1).max(400_000),
  /** What the start call sent along, given back as it was; unused (this server keeps where the console goes itself). */
  RelayState: z.string().max(500).optional(),
});
/** The assertion consumer's body. */
export type SamlAcsBody = z.input<typeof SamlAcsBody>;

/** A group of the identity provider mapped to a team and a role here. */
export const SsoGroupView = z.object({
  /** Mapping id. */
  id: z.number().int(),
  /** The group's name as the provider sends it in the groups claim (or attribute). */
  group: z.string(),
  /** The team its members join; null only for admins (their work spans every team). */
  team_id: z.number().int().nullable(),
  /** That team's name. */
  team_name: z.string().nullable(),
  /** The role its members get. */
  role: z.enum(STAFF_ROLES),
  /** When it was made (epoch ms). */
  created_at: EpochMs,
});
/** A group mapping. */
export type SsoGroupView = z.infer<typeof SsoGroupView>;

/** GET /admin/sso/groups data. */
export const SsoGroupListData = z.object({ list: z.array(SsoGroupView) });
/** GET /admin/sso/groups data. */
export type SsoGroupListData = z.infer<typeof SsoGroupListData>;

/** A group's name at the provider. */
export const SsoGroupNameField = z.string().trim().min(1).max(200);

/** POST /admin/sso/groups body: maps a group to a team and role. */
export const CreateSsoGroupBody = z.object({
  /** The group's name as the provider sends it. */
  group: SsoGroupNameField,
  /** The team; null only with the admin role. */
  team_id: Id.nullable(),
  /** The role. */
  role: z.enum(STAFF_ROLES),
});
/** POST /admin/sso/groups body. */
export type CreateSsoGroupBody = z.input<typeof CreateSsoGroupBody>;

/** POST /admin/sso/groups/update body: changes what is given. */
export const UpdateSsoGroupBody = z.object({
  /** Mapping id. */
  id: Id,
  /** New group name. */
  group: SsoGroupNameField.optional(),
  /** New team (null only with the admin role). */
  team_id: Id.nullable().optional(),
  /** New role. */
  role: z.enum(STAFF_ROLES).optional(),
});
/** POST /admin/sso/groups/update body. */
export type UpdateSsoGroupBody = z.input<typeof UpdateSsoGroupBody>;

/** POST /admin/sso/groups/delete body. */
export const SsoGroupIdBody = z.object({ id: Id });
/** POST /admin/sso/groups/delete body. */
export type SsoGroupIdBody = z.input<typeof SsoGroupIdBody>;

/** How one provider is set up, as an admin sees it (never its secret). */
export const SsoSetupView = z.object({
  /** The name on the login page. */
  name: z.string(),
  /** The issuer (OpenID Connect) or entity id of the identity provider (SAML). */
  issuer: z.string(),
  /** The address to register at the provider: the redirect URI (OpenID Connect) or the assertion consumer (SAML). */
  callback_url: z.string(),
  /** The claim (or attribute) that says who signs in, and whether it holds a phone or an e-mail. */
  account_claim: z.string(),
  /** `phone` or `email`. */
  account_kind: z.enum(['phone', 'email']),
  /** The claim (or attribute) that lists the groups. */
  groups_claim: z.string(),
  /** SAML only: where the provider reads this site's metadata. */
  metadata_url: z.string().nullable(),
});
/** A provider's set-up. */
export type SsoSetupView = z.infer<typeof SsoSetupView>;

/** GET /admin/sso/settings data. */
export const SsoSettingsData = z.object({
  /** OpenID Connect as set up by the operator, or null. */
  oidc: SsoSetupView.nullable(),
  /** SAML 2.0 as set up by the operator, or null. */
  saml: SsoSetupView.nullable(),
  /** Whether accounts may be made on their first sign-in from the provider's claims. */
  create_accounts: z.boolean(),
  /** True when staff must sign in with single sign-on; the break-glass admins may still use their password. */
  required: z.boolean(),
  /** The admin accounts that may still sign in with their password (break glass: the provider is down). */
  break_glass: z.array(z.number().int()),
});
/** GET /admin/sso/settings data. */
export type SsoSettingsData = z.infer<typeof SsoSettingsData>;

/** POST /admin/sso/settings body. */
export const SsoSettingsBody = z.object({
  /** Require single sign-on of every account but the break-glass admins. */
  required: z.boolean(),
  /** The break-glass admins (enabled admin accounts); at least one when `required`. */
  break_glass: z.array(Id).max(20),
});
/** POST /admin/sso/settings body. */
export type SsoSettingsBody = z.input<typeof SsoSettingsBody>;
