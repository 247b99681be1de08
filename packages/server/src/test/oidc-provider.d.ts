/** The parts of oidc-provider (which ships no types) the tests' identity provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** A Koa context, as far as the tests' middleware reads it. */
  export interface ProviderContext {
    path: string;
    body: unknown;
  }

  /** A grant the tests make for the signed-in account. */
  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<{
      uid: string;
      prompt: { name: string };
      params: Record<string, unknown>;
      session?: { accountId?: string };
    }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: new (init: { accountId: string; clientId: string }) => Grant;
  }
}
