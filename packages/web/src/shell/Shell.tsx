import { useEffect, useEffectEvent } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useI18n } from '../i18n/index.js';
import { useSiteConfig } from '../session/siteConfig.js';
import { MaintenanceModal } from './MaintenanceModal.js';
import { setErrorReporting, trackPageView } from './monitoring.js';
import { RouteLoader } from './RouteLoader.js';

/** The application shell around every page: route-change overlay, maintenance notice, reporting hooks. */
export function Shell() {
  const { lang } = useI18n();
  const location = useLocation();
  const site = useSiteConfig();
  const config = site.data;
  // The console stays usable during maintenance so operators can end the window.
  const inConsole = location.pathname === '/admin' || location.pathname.startsWith('/admin/');

  useEffect(() => {
    if (config) setErrorReporting(config.error_report_url);
  }, [config]);

  const analyticsUrl = config?.analytics_url ?? '';
  // The language rides along but is read as an event, since a switch is not a new page view.
  const onPageView = useEffectEvent((url: string, path: string) => trackPageView(url, path, lang));
  useEffect(() => onPageView(analyticsUrl, location.pathname), [analyticsUrl, location.pathname]);

  return (
    <>
      <RouteLoader />
      <Outlet />
      {!inConsole && <MaintenanceModal config={config} />}
    </>
  );
}
