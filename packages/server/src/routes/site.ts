import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Site settings and the server clock. */
export function siteRoutes(app: FastifyInstance, services: Services): void {
  route(app, services, api.siteConfig, async () => services.site.siteConfig());
  route(app, services, api.timeTable, async () => services.site.timeTable());
}
