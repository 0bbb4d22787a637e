/**
 * `GET /api/openapi.json` (anonymous): the OpenAPI 3.1 description of every HTTP route this app
 * registers, generated from the registrations and their zod schemas (functions/shared/openapi.ts).
 * Built on the first request, when every entry point has registered its routes.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import { json } from './shared/http';
import { openApiDocument } from './shared/openapi';
import { publicRoute, registeredRoutes } from './shared/route';

let document: unknown;

publicRoute('openApiDescription', {
  route: 'openapi.json',
  methods: ['GET'],
  schemas: {
    responses: {
      200: {
        description: 'This OpenAPI 3.1 document.',
        body: z.looseObject({
          openapi: z.string().regex(/^3\.1\./),
          paths: z.record(z.string(), z.unknown()),
        }),
      },
    },
  },
  handler: async () => {
    document ??= openApiDocument(registeredRoutes());
    return json(200, document, { 'cache-control': 'public, max-age=300' });
  },
});
