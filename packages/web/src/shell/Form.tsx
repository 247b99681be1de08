/**
 * antd's Form with ids unique by construction: antd makes a field's id from the form's name and the field's
 * (`name` alone without one), so two forms on a page with a field of the same name (an account's and a team's
 * `name`) gave two elements one id, and the second label named the first input. Every form here is named by
 * React's useId, with the name it was given as a readable prefix. The console imports Form from here (ESLint
 * refuses antd's own).
 */
// eslint-disable-next-line no-restricted-imports -- the one place antd's Form is wrapped.
import { Form as AntdForm, type FormProps } from 'antd';
import { useId, type ReactElement, type ReactNode } from 'react';

/** A form name unique on the page: the given one (or "form") and the instance's id, in characters ids allow. */
export function uniqueFormName(given: FormProps['name'], reactId: string): string {
  return `${given ?? 'form'}-${reactId.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

function UniqueForm<Values = unknown>(props: FormProps<Values> & { children?: ReactNode }): ReactElement {
  const reactId = useId();
  return <AntdForm<Values> {...props} name={uniqueFormName(props.name, reactId)} />;
}

/** antd's Form, its fields' ids unique on the page. */
export const Form = Object.assign(UniqueForm, {
  Item: AntdForm.Item,
  List: AntdForm.List,
  ErrorList: AntdForm.ErrorList,
  Provider: AntdForm.Provider,
  useForm: AntdForm.useForm,
  useFormInstance: AntdForm.useFormInstance,
  useWatch: AntdForm.useWatch,
});
