import { LOADER_DELAY_MS } from '@examhall/contract';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/index.js';
import { Spin } from '../ui/Spin.js';
import { useRouteLoading } from './appRouter.js';

/** The loading overlay, shown only when waiting has lasted LOADER_DELAY_MS, so quick changes do not flash. */
export function DelayedOverlay() {
  const { t } = useI18n();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), LOADER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div className="route-loader" data-testid="route-loader" role="status" aria-live="polite">
      <Spin size="large" />
      <span>{t('common.loading')}</span>
    </div>
  );
}

/** The overlay while a move waits for its page's code. */
export function RouteLoader() {
  return useRouteLoading() ? <DelayedOverlay /> : null;
}
