import { LOADER_DELAY_MS } from '@examhall/contract';
import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { useI18n } from '../i18n/index.js';
import { Spin } from '../ui/Spin.js';

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

/** The overlay during route changes (lazy pages and loaders). */
export function RouteLoader() {
  const navigation = useNavigation();
  return navigation.state === 'loading' ? <DelayedOverlay /> : null;
}

/** What the first page load shows before its lazy route arrives. */
export function HydrateFallback() {
  return <DelayedOverlay />;
}
