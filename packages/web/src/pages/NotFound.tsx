import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useI18n } from '../i18n/index.js';
import { useDocumentTitle } from '../shell/useDocumentTitle.js';

/** The 404 page: unknown addresses and HTTP 404 answers end here. */
export default function NotFound({ embedded = false }: { embedded?: boolean }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  useDocumentTitle(t('notFound.title'));
  // Inside a frame that already has its main landmark, a section avoids a second one.
  const Landmark = embedded ? 'section' : 'main';
  return (
    <Landmark data-testid="not-found">
      <Result
        // antd's 404 picture is titled "No Found" in English whatever the page's language: the code alone instead.
        icon={<div className="not-found-code">404</div>}
        title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('notFound.title')}</h1>}
        subTitle={t('notFound.desc')}
        extra={
          <Button type="primary" onClick={() => void navigate('/')} data-testid="back-home">
            {t('common.backHome')}
          </Button>
        }
      />
    </Landmark>
  );
}

/** The 404 page inside the candidate frame, which holds the page's <main>. */
export function NotFoundInFrame() {
  return <NotFound embedded />;
}
