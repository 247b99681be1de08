/**
 * antd's InputNumber without its step arrows: they are spans named "Increase Value" and "Decrease Value" in English
 * whatever the page's language, which no prop can change. The field keeps the keyboard's steps (arrow keys) and
 * is named by its label alone. The console imports InputNumber from here (ESLint refuses antd's own).
 */
// eslint-disable-next-line no-restricted-imports -- the one place antd's InputNumber is wrapped.
import { InputNumber as AntdInputNumber, type InputNumberProps } from 'antd';

function NamedInputNumber(props: InputNumberProps) {
  // React 19 passes a ref as a prop: it reaches antd's input with the rest.
  return <AntdInputNumber {...props} controls={false} />;
}

/** antd's InputNumber (its types too), named by its label alone. */
export const InputNumber = NamedInputNumber as unknown as typeof AntdInputNumber;
