import { Checkbox, CheckboxGroup, Radio, RadioGroup } from '../../ui/ChoiceGroup.js';
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
    <RadioGroup
      name={props.name}
      aria-label={props.label}
      value={props.value}
      onChange={props.onChange}
      className="option-group"
      data-testid="choice-group"
    >
      {props.options.map((o) => (
        <Radio key={o.id} value={o.id} data-testid="choice-option" data-option={o.id}>
          <span className="option-id">{o.id}.</span> <Html as="span" html={o.content} />
        </Radio>
      ))}
    </RadioGroup>
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
  return (
    <CheckboxGroup
      name={props.name}
      aria-label={props.label}
      value={props.value}
      order={props.options.map((o) => o.id)}
      onChange={props.onChange}
      className="option-group"
      data-testid="multi-group"
    >
      {props.options.map((o) => (
        <Checkbox key={o.id} value={o.id} data-testid="multi-option" data-option={o.id}>
          <span className="option-id">{o.id}.</span> <Html as="span" html={o.content} />
        </Checkbox>
      ))}
    </CheckboxGroup>
  );
}
