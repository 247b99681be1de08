import { formatServerTime, SERVER_TIMEZONE, type SiteConfigData, type TimeTableData } from '@examhall/contract';
import type { Config } from '../config.js';

/** Site-wide facts: the maintenance window, the server clock, client settings. */
export class SiteService {
  constructor(
    private readonly config: Config,
    private readonly clock: () => number,
  ) {}

  /** True while the configured maintenance window is on. */
  inMaintenance(now = this.clock()): boolean {
    const m = this.config.maintenance;
    return m !== null && now >= m.from && now < m.to;
  }

  /** What the web shell needs first. */
  siteConfig(): SiteConfigData {
    const now = this.clock();
    const m = this.config.maintenance;
    return {
      maintenance: m ? { from: m.from, to: m.to, active: this.inMaintenance(now) } : null,
      support_phone: this.config.supportPhone,
      cookie_domain: this.config.cookieDomain,
      error_report_url: this.config.errorReportUrl,
      analytics_url: this.config.analyticsUrl,
      server_time: now,
    };
  }

  /** The server clock in UTC+8. */
  timeTable(): TimeTableData {
    const now = this.clock();
    return { date: formatServerTime(now), timestamp: now, timezone: SERVER_TIMEZONE };
  }
}
