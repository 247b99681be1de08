import { Card, Empty, Typography } from 'antd';
import { Link, useParams } from 'react-router';
import { useI18n } from '../../i18n/index.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import NotFound from '../NotFound.js';
import { CONSOLE_AREAS } from './consoleAreas.js';

/** A console area whose tools are not in place yet (no page in the console's table): it says what the area is for. */
export default function AreaPage() {
  const { t } = useI18n();
  const { area } = useParams();
  const def = CONSOLE_AREAS.find((a) => a.path === area && a.description !== null);
  useDocumentTitle(def ? t(def.label) : t('notFound.title'));
  if (!def?.description) return <NotFound embedded />;
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
        {t(def.label)}
      </Typography.Title>
      <Card>
        <Empty
          data-testid={`area-${def.path}`}
          description={
            <>
              <Typography.Paragraph type="secondary" style={{ maxWidth: 520, margin: '0 auto' }}>
                {t(def.description)}
              </Typography.Paragraph>
              {def.path === 'grading' && <Link to="/admin/grading/similarity">{t('sim.link')}</Link>}
            </>
          }
        />
      </Card>
    </>
  );
}
