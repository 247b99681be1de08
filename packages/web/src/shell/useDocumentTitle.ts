import { useEffect } from 'react';
import { useI18n } from '../i18n/index.js';

/** Sets the browser tab's title to the page's title and the product name. */
export function useDocumentTitle(pageTitle: string): void {
  const { t } = useI18n();
  const appName = t('app.name');
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} - ${appName}` : appName;
  }, [pageTitle, appName]);
}
