/**
 * Ant Design's context for the pages built with it (the console and the candidate pages other than the exam page):
 * the app's theme, antd's texts in the chosen language, dayjs's language, and App (message, modal, notification).
 * It loads with those pages, so the exam page carries no antd code.
 */
import { App, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useI18n } from '../i18n/index.js';
import { APP_THEME } from './theme.js';

/** Antd's theme, language and App around `children`; `inline` adds no element of its own (a part of a kit page). */
export function AntdProviders({ children, inline }: { children: ReactNode; inline?: boolean }) {
  const { lang } = useI18n();
  // Before the children draw, so dates they format are in the page's language from the first paint.
  dayjs.locale(lang === 'zh-CN' ? 'zh-cn' : 'en');
  return (
    // Lists drawn whole (virtual off): a virtual select also draws a hidden list for screen readers whose options
    // read their values (`admin`, `-1`, `linetest`) rather than their labels.
    <ConfigProvider locale={lang === 'zh-CN' ? zhCN : enUS} theme={APP_THEME} virtual={false}>
      <App component={inline ? false : undefined}>{children}</App>
    </ConfigProvider>
  );
}

/** The layout route of the antd pages. */
export default function AntdScope() {
  return (
    <AntdProviders>
      <Outlet />
    </AntdProviders>
  );
}
