import { QuestionCircleOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';

/**
 * A column's title with its definition beside it: a help mark that shows it on hover and names it to screen readers
 * (not a tab stop: the table copies its headers into a hidden measuring row; the page lists every definition too).
 */
export function FigureTitle({ title, definition }: { title: string; definition: string }) {
  return (
    <span>
      {title}{' '}
      <Tooltip title={definition}>
        <QuestionCircleOutlined aria-label={definition} style={{ color: '#595959', cursor: 'help' }} />
      </Tooltip>
    </span>
  );
}
