/**
 * What the app shows when a page fails to load or to draw (its code could not be fetched, or it threw), instead of
 * an empty window: the reason and a way to try again. Moving to another address clears it.
 */
import { Component, type ReactNode } from 'react';
import { useI18n } from '../i18n/index.js';
import { Alert } from '../ui/Alert.js';
import { Button } from '../ui/Button.js';

function RouteErrorNotice({ error }: { error: unknown }) {
  const { t } = useI18n();
  const msg = error instanceof Error ? error.message : String(error);
  return (
    <div className="route-error" data-testid="route-error">
      <Alert
        type="error"
        role="alert"
        title={t('common.loadFailed', { msg })}
        action={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('common.retry')}
          </Button>
        }
      />
    </div>
  );
}

interface Props {
  /** The address shown; the error belongs to it. */
  path: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  path: string;
}

/** Catches a page's failure and shows it until the address changes. */
export class RouteError extends Component<Props, State> {
  override state: State = { error: null, path: this.props.path };

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.path === state.path ? null : { error: null, path: props.path };
  }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown') };
  }

  override componentDidCatch(error: unknown): void {
    console.error('page failed', error);
  }

  override render() {
    return this.state.error ? <RouteErrorNotice error={this.state.error} /> : this.props.children;
  }
}
