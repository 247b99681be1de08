import { DownloadOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { errorText } from '../../../../api/client.js';
import { useI18n } from '../../../../i18n/index.js';
import { useTemplate } from '../importQueries.js';

/** Downloads the Excel template, its headers and instructions in the console's language. */
export function TemplateButton() {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const template = useTemplate();
  return (
    <Button
      type="link"
      icon={<DownloadOutlined aria-hidden />}
      loading={template.isPending}
      onClick={() =>
        template.mutate(lang === 'zh-CN' ? 'zh' : 'en', { onError: (e) => void message.error(errorText(e)) })
      }
      data-testid="import-template"
    >
      {t('console.import.template')}
    </Button>
  );
}
