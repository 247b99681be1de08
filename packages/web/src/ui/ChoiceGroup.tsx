/**
 * Radio and check box groups on native inputs, so the keyboard works as the browser's: Tab reaches a radio group
 * once and the arrow keys move the pick; Space ticks a check box. Each option is a label around its input.
 */
import { createContext, useContext, useId, type ReactNode } from 'react';
import { toggleChoice } from './choice.js';
import './ui.css';

interface GroupState {
  name: string;
  kind: 'radio' | 'checkbox';
  isChecked: (value: string) => boolean;
  set: (value: string, on: boolean) => void;
}

const Group = createContext<GroupState | null>(null);

/** What both groups take besides their values: a name for the inputs, a label, a class and data attributes. */
type GroupProps = {
  name?: string;
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
  'aria-labelledby'?: string;
} & { [data: `data-${string}`]: string | number | undefined };

/** The group's element, which gives its options their shared name, kind and state. */
function GroupBox({
  kind,
  isChecked,
  set,
  props: { name, children, ...rest },
}: Omit<GroupState, 'name'> & { props: GroupProps }) {
  const own = useId();
  return (
    <div role={kind === 'radio' ? 'radiogroup' : 'group'} {...rest}>
      <Group.Provider value={{ name: name ?? own, kind, isChecked, set }}>{children}</Group.Provider>
    </div>
  );
}

/** One pick among the options inside (Radio); `value` undefined when none is picked. */
export function RadioGroup({
  value,
  onChange,
  ...props
}: GroupProps & { value: string | undefined; onChange: (value: string) => void }) {
  return <GroupBox kind="radio" isChecked={(v) => v === value} set={(v, on) => on && onChange(v)} props={props} />;
}

/** Any number of picks among the options inside (Checkbox), answered in `order` (the options' order). */
export function CheckboxGroup({
  value,
  order,
  onChange,
  ...props
}: GroupProps & { value: readonly string[]; order: readonly string[]; onChange: (value: string[]) => void }) {
  return (
    <GroupBox
      kind="checkbox"
      isChecked={(v) => value.includes(v)}
      set={(v, on) => onChange(toggleChoice(value, v, on, order))}
      props={props}
    />
  );
}

function Choice({
  value,
  children,
  ...data
}: { value: string; children: ReactNode } & { [data: `data-${string}`]: string | number | undefined }) {
  const group = useContext(Group);
  if (!group) throw new Error('a Radio or Checkbox needs its group around it');
  const checked = group.isChecked(value);
  return (
    <label className={`ui-choice ui-${group.kind}`} data-checked={checked ? '1' : '0'} {...data}>
      <input
        type={group.kind}
        name={group.name}
        value={value}
        checked={checked}
        onChange={(e) => group.set(value, e.target.checked)}
      />
      <span className="ui-choice-mark" aria-hidden />
      <span>{children}</span>
    </label>
  );
}

/** An option of a RadioGroup. */
export const Radio = Choice;
/** An option of a CheckboxGroup. */
export const Checkbox = Choice;
