import { z } from 'zod';
import { EpochMs } from './common.js';

/** GET /common/site-config data: what the web shell needs before anything else. */
export const SiteConfigData = z.object({
  /** The maintenance window, null when none is configured. */
  maintenance: z
    .object({
      /** Start (epoch ms). */
      from: EpochMs,
      /** End (epoch ms). */
      to: EpochMs,
      /** True when now is inside the window. */
      active: z.boolean(),
    })
    .nullable(),
  /** Support phone number shown in the maintenance notice. */
  support_phone: z.string(),
  /** Domain the auth cookie is shared on, empty for the current host. */
  cookie_domain: z.string(),
  /** Error-reporting endpoint, empty when off. */
  error_report_url: z.string(),
  /** Analytics endpoint, empty when off. */
  analytics_url: z.string(),
  /** Server time (epoch ms) when answered. */
  server_time: EpochMs,
});
/** GET /common/site-config data. */
export type SiteConfigData = z.infer<typeof SiteConfigData>;
