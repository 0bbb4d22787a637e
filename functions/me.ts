/**
 * `GET /api/me` (any signed-in caller): who the app believes the caller is, as it decides
 * authorization — roles and the employee it is. The console reads it after signing in; App
 * Service's own `/.auth/me` needs the token store, which the infra keeps off (API.md
 * "Authorization").
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import { signedIn } from '../src/identity/access';
import { describeCaller } from '../src/identity/principal';
import { json } from './shared/http';
import { protectedRoute } from './shared/route';

const callerJson = z.strictObject({
  userId: z.string().optional(),
  name: z.string().optional(),
  roles: z.array(z.string()),
  employee: z.strictObject({ department: z.string(), employeeId: z.string() }).optional(),
});

/** `GET /me` → 200 the caller. */
export const getMe = protectedRoute('getMe', {
  route: 'me',
  methods: ['GET'],
  access: signedIn,
  schemas: {
    responses: { 200: { description: 'The caller as the app sees it.', body: callerJson } },
  },
  handler: async ({ principal }) =>
    json(200, describeCaller(principal), { 'cache-control': 'no-store' }),
});
