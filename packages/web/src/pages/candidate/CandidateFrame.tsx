import { Layout } from 'antd';
import { Link, Outlet } from 'react-router';
import { useI18n } from '../../i18n/index.js';
import { LanguageSwitch } from '../../shell/LanguageSwitch.js';

/** Frame of the candidate's pages: the product name and the language switch. */
export default function CandidateFrame() {
  const { t } = useI18n();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <Layout.Header className="page-header">
        <Link to="/exams" className="brand">
          {t('app.name')}
        </Link>
        <LanguageSwitch />
      </Layout.Header>
      {/* antd's Content is the page's one <main>. */}
      <Layout.Content id="main" tabIndex={-1}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
