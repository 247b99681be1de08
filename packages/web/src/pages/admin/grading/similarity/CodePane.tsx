import { Typography } from 'antd';
import { useI18n } from '../../../../i18n/index.js';
import { fragmentColour } from './fragmentLines.js';

/**
 * One side's code with line numbers, the lines of matched fragments on their fragment's colour. The code scrolls in
 * its own box, which takes the focus so that the keyboard scrolls it too.
 */
export function CodePane(props: { title: string; code: string; lines: Map<number, number>; testId: string }) {
  const { t } = useI18n();
  const rows = props.code === '' ? [] : props.code.replace(/\n$/, '').split('\n');
  return (
    <div style={{ flex: 1, minWidth: 0 }}>
      <Typography.Text strong>{props.title}</Typography.Text>
      {/* It scrolls: focusable, so a keyboard reaches what is out of view. */}
      <pre
        tabIndex={0}
        role="region"
        aria-label={props.title}
        data-testid={props.testId}
        style={{
          margin: '8px 0 0',
          padding: 8,
          background: '#fafafa',
          overflow: 'auto',
          maxHeight: '60vh',
          fontSize: 12,
        }}
      >
        {rows.length === 0 && <Typography.Text type="secondary">{t('sim.drawer.noCode')}</Typography.Text>}
        {rows.map((text, i) => {
          const fragment = props.lines.get(i + 1);
          return (
            <div
              key={i}
              data-fragment={fragment}
              style={{ display: 'flex', background: fragment === undefined ? undefined : fragmentColour(fragment) }}
            >
              <span aria-hidden style={{ width: 36, flex: 'none', color: '#595959', userSelect: 'none' }}>
                {i + 1}
              </span>
              <code>{text || ' '}</code>
            </div>
          );
        })}
      </pre>
    </div>
  );
}
