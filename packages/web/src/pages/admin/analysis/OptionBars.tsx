import type { OptionShare } from '@examhall/contract';
import { useI18n } from '../../../i18n/index.js';
import { percent } from './figures.js';

/** The share choosing each option of a choice question as short bars; the key's options in green. */
export function OptionBars({ shares }: { shares: OptionShare[] | null }) {
  const { t } = useI18n();
  if (!shares) return <span aria-label={t('analysis.none')}>{t('analysis.none')}</span>;
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'auto 56px auto', gap: '2px 6px', alignItems: 'center' }}>
      {shares.map((s) => {
        const label = s.option || t('analysis.noAnswer');
        return (
          <div key={s.option} style={{ display: 'contents' }} data-testid={`analysis-option-${s.option || 'none'}`}>
            <span style={{ fontWeight: s.key ? 600 : 400 }}>{label}</span>
            <span
              role="img"
              aria-label={`${label} ${percent(s.share)}`}
              style={{ display: 'block', height: 8, background: '#f0f0f0', borderRadius: 4 }}
            >
              <span
                style={{
                  display: 'block',
                  height: 8,
                  width: `${Math.min(100, s.share * 100)}%`,
                  background: s.key ? '#2e7d32' : s.option ? '#8c8c8c' : '#d9d9d9',
                  borderRadius: 4,
                }}
              />
            </span>
            <span style={{ fontVariantNumeric: 'tabular-nums' }}>{percent(s.share)}</span>
          </div>
        );
      })}
    </div>
  );
}
