import { Checkbox, Radio } from 'antd';
import { Html } from './Html.js';

interface Option {
  id: string;
  content: string;
}

/** One pick among options: a radio group, operable with the arrow keys. */
export function SingleChoice(props: {
  name: string;
  label: string;
  options: Option[];
  value: string | undefined;
  onChange: (option: string) => void;
}) {
  return (
    <Radio.Group
      name={props.name}
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(String(e.target.value))}
      className="option-group"
      data-testid="choice-group"
    >
      {props.options.map((o) => (
        <Radio key={o.id} value={o.id} data-testid="choice-option" data-option={o.id}>
          <span className="option-id">{o.id}.</span> <Html as="span" html={o.content} />
        </Radio>
      ))}
    </Radio.Group>
  );
}

/** Several picks among options: a checkbox group, in option order. */
export function MultiChoice(props: {
  name: string;
  label: string;
  options: Option[];
  value: string[];
  onChange: (options: string[]) => void;
}) {
  const order = props.options.map((o) => o.id);
  return (
    <Checkbox.Group
      aria-label={props.label}
      role="group"
      value={props.value}
      onChange={(v) => props.onChange([...(v as string[])].sort((a, b) => order.indexOf(a) - order.indexOf(b)))}
      className="option-group"
      data-testid="multi-group"
    >
      {props.options.map((o) => (
        <Checkbox key={o.id} value={o.id} name={props.name} data-testid="multi-option" data-option={o.id}>
          <span className="option-id">{o.id}.</span> <Html as="span" html={o.content} />
        </Checkbox>
      ))}
    </Checkbox.Group>
  );
}
