import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useI18n } from '../i18n/index.js';

/** Switches between Chinese and English; the label names the language it switches to. */
export function LanguageSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <Button
      type="text"
      icon={<GlobalOutlined aria-hidden />}
      aria-label={t('lang.switchLabel')}
      lang={lang === 'zh-CN' ? 'en' : 'zh-CN'}
      data-testid="lang-switch"
      onClick={() => setLang(lang === 'zh-CN' ? 'en-US' : 'zh-CN')}
    >
      {t('lang.switch')}
    </Button>
  );
}
