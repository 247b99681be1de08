import { useI18n } from '../i18n/index.js';
import { Button } from '../ui/Button.js';
import { Icon } from '../ui/icons.js';

/** Switches between Chinese and English; the label names the language it switches to. */
export function LanguageSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <Button
      type="text"
      icon={<Icon name="globe" />}
      aria-label={t('lang.switchLabel')}
      lang={lang === 'zh-CN' ? 'en' : 'zh-CN'}
      data-testid="lang-switch"
      onClick={() => setLang(lang === 'zh-CN' ? 'en-US' : 'zh-CN')}
    >
      {t('lang.switch')}
    </Button>
  );
}
