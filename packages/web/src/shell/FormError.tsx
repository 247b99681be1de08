import { Alert } from 'antd';

/** The error of a form, announced to screen readers; nothing when there is none. */
export function FormError({ error, testId }: { error: string | null | undefined; testId: string }) {
  if (!error) return null;
  return <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} data-testid={testId} />;
}
