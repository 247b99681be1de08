import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Integrations: webhook endpoints and their delivery log, API tokens, and the results other systems read. */
export function integrationRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.webhookList, async () => s.webhooks.list());
  route(app, s, api.webhookSave, async ({ staff, body }) => s.webhooks.save(staff, body));
  route(app, s, api.webhookDelete, async ({ staff, body }) => s.webhooks.remove(staff, body.id));
  route(app, s, api.webhookTest, async ({ staff, body }) => s.webhooks.test(staff, body.id));
  route(app, s, api.webhookDeliveries, async ({ query }) => s.webhooks.deliveries(query));
  route(app, s, api.webhookRedeliver, async ({ staff, body }) => s.webhooks.redeliver(staff, body.id));
  route(app, s, api.apiTokenList, async ({ query }) => s.apiTokens.list(query));
  route(app, s, api.apiTokenCreate, async ({ staff, body }) => s.apiTokens.create(staff, body));
  route(app, s, api.apiTokenRevoke, async ({ staff, body }) => s.apiTokens.revoke(staff, body.id));
  route(app, s, api.resultList, async ({ integration, query }) => s.resultFeed.page(integration, query));
}
