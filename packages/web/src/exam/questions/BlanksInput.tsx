import { useI18n } from '../../i18n/index.js';
import { Input } from '../../ui/Input.js';

/** One text field per blank, each labelled with its number. */
export function BlanksInput(props: {
  id: string;
  count: number;
  value: string[];
  onChange: (blanks: string[]) => void;
  onPasteBlocked: (() => void) | null;
}) {
  const { t } = useI18n();
  const values = Array.from({ length: props.count }, (_, i) => props.value[i] ?? '');
  return (
    <div className="blanks">
      {values.map((v, i) => (
        <label key={i} className="blank" htmlFor={`${props.id}-blank-${i}`}>
          <span>{t('exam.blank', { n: i + 1 })}</span>
          <Input
            id={`${props.id}-blank-${i}`}
            value={v}
            maxLength={1000}
            onChange={(e) => {
              const next = [...values];
              next[i] = e.target.value;
              props.onChange(next);
            }}
            onPaste={(e) => {
              if (!props.onPasteBlocked) return;
              e.preventDefault();
              props.onPasteBlocked();
            }}
            data-testid="blank-input"
          />
        </label>
      ))}
    </div>
  );
}
