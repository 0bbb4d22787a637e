/**
 * `GET /api/health`: anonymous liveness and storage reachability (API.md "Health"). Storage is
 * probed at most once per few seconds per instance (`CachedHealthCheck`). In Azure without App
 * Service authentication it also says `"auth":"missing"`: every protected route then answers 401,
 * and this is where an operator sees why. Settings the app cannot use (malformed, or an unresolved
 * Key Vault reference) are listed under `settings`: the features that need them answer 503.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app } from '@azure/functions';
import { z } from 'zod';
import { configProblems, readPlatformAuth } from '../src/config';
import { describePlatform } from '../src/identity/trust';
import { HEALTH_PROBE_INTERVAL_MS } from '../src/health/health';
import { json } from './shared/http';
import { publicRoute } from './shared/route';

// Where the app believes it runs, once at startup: the first thing to read when every protected
// route answers 401 after a deployment.
app.hook.appStart((context) => {
  context.hookData.platform = describePlatform(readPlatformAuth());
  console.info(context.hookData.platform);
});

const HEALTH_PROBE_SECONDS = Math.ceil(HEALTH_PROBE_INTERVAL_MS / 1_000);

/** `{invalid, unresolved, missing}` with the non-empty lists only; undefined when all is well. */
function settingsReport(): Record<string, string[]> | undefined {
  const lists = Object.entries(configProblems()).filter(([, names]) => names.length > 0);
  return lists.length > 0 ? Object.fromEntries(lists) : undefined;
}

/** The health report (src/health/health.ts `HealthReport`, plus settings and auth). */
const healthJson = z.strictObject({
  status: z.enum(['ok', 'degraded']),
  storage: z.enum(['ok', 'unreachable']),
  services: z.strictObject({ table: z.boolean(), queue: z.boolean(), blob: z.boolean() }),
  settings: z
    .strictObject({
      invalid: z.array(z.string()).optional(),
      unresolved: z.array(z.string()).optional(),
      missing: z.array(z.string()).optional(),
    })
    .optional(),
  auth: z.literal('missing').optional(),
});

publicRoute('health', {
  route: 'health',
  methods: ['GET'],
  schemas: {
    responses: {
      200: {
        description: 'Storage answers (`degraded` when some setting is unusable).',
        body: healthJson,
      },
      503: { description: 'Storage is unreachable.', body: healthJson },
    },
  },
  uses: (s) => ({ storageHealth: s.health(), trusted: s.principalTrust().trusted }),
  handler: async ({ use: { storageHealth, trusted } }) => {
    const report = await storageHealth.report();
    const settings = settingsReport();
    const auth = trusted ? {} : { auth: 'missing' };
    return json(
      report.storage === 'ok' ? 200 : 503,
      {
        ...report,
        ...(settings ? { status: 'degraded', settings } : {}),
        ...auth,
      },
      {
        'cache-control': 'no-store',
        // The report is kept that long: asking again sooner gets the same answer.
        ...(report.storage === 'ok' ? {} : { 'retry-after': String(HEALTH_PROBE_SECONDS) }),
      },
    );
  },
});
