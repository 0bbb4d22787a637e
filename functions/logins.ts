/**
 * Login attempts in per-day tables (high-volume delete), API.md "Login attempts":
 * `POST /logins`, `GET /logins/{userId}?days=7`, and the timer `dropExpiredLoginTables` that drops
 * whole day tables past the retention and creates tomorrow's table.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app, type InvocationContext, type Timer } from '@azure/functions';
import { z } from 'zod';
import { settingOrDefault } from '../src/config';
import { DEFAULT_LOGIN_DAYS, MAX_LOGIN_TOP, type LoginAttempt } from '../src/logins/loginAttempts';
import { dropExpiredLoginTables } from '../src/logins/retention';
import { MAX_LOGIN_USER_ID_LENGTH } from '../src/storage/keys/tables/logins';
import { validateInput } from '../src/domainErrors';
import { json, readJson, readParams, readQuery } from './shared/http';
import { anyOf, telemetryWriter, theUser } from '../src/identity/access';
import { ETAG_HEADER, isoInstant, pageOf, pageBody } from './shared/output';
import { protectedRoute } from './shared/route';
import { withServices } from './shared/services';
import { recordingRuns } from './shared/timerRuns';
import { instant, queryInt } from './shared/input';

const userId = z.string().min(1).max(MAX_LOGIN_USER_ID_LENGTH);

const attemptBody = z.strictObject({
  userId,
  succeeded: z.boolean(),
  ip: z.union([z.ipv4(), z.ipv6()], { message: 'must be an IPv4 or IPv6 address' }).optional(),
  at: instant.optional(),
});

const userRoute = z.object({ userId: z.string() });

const listQuery = z.object({
  days: queryInt(1, 3650).default(DEFAULT_LOGIN_DAYS),
  top: queryInt(1, MAX_LOGIN_TOP).optional(),
  pageSize: queryInt(1, MAX_LOGIN_TOP).optional(),
  continuationToken: z.string().min(1).max(4096).optional(),
});

/** An attempt as the API shows it. */
const attemptJson = z.strictObject({
  attemptId: z.string(),
  userId: z.string(),
  succeeded: z.boolean(),
  ip: z.string().optional(),
  at: isoInstant,
});

function toJson(attempt: LoginAttempt): Record<string, unknown> {
  return { ...attempt, at: attempt.at.toISOString() };
}

/** `POST /logins` → 201 with the stored attempt. */
export const recordLoginAttempt = protectedRoute('recordLoginAttempt', {
  route: 'logins',
  methods: ['POST'],
  access: anyOf(telemetryWriter),
  schemas: {
    body: attemptBody,
    responses: {
      201: { description: 'The stored attempt.', body: attemptJson, headers: ETAG_HEADER },
    },
  },
  uses: (s) => s.logins(),
  handler: async ({ request, use: logins }) => {
    const body = await readJson(request, attemptBody);
    const { attempt, etag } = await logins.attempts.record(body);
    return json(201, toJson(attempt), { etag });
  },
});

/**
 * `GET /logins/{userId}?days=N` → the user's attempts of the last N days, newest first, in pages
 * (`top` or `pageSize`, default 100; `continuationToken`). The route
 * is a catch-all so an id with `/` may be sent raw; an encoded `%2F`, which the host leaves
 * encoded in route values (as ASP.NET routing does), is decoded here.
 */
export const listLoginAttempts = protectedRoute('listLoginAttempts', {
  route: 'logins/{*userId}',
  methods: ['GET'],
  access: anyOf(theUser),
  schemas: {
    params: userRoute,
    query: listQuery,
    responses: {
      200: { description: 'A page of the attempts, newest first.', body: pageOf(attemptJson) },
    },
  },
  // The catch-all keeps an encoded `/` encoded; the rule compares the decoded id.
  target: (request) => ({ userId: request.params.userId?.replace(/%2F/gi, '/') }),
  uses: (s) => s.logins(),
  handler: async ({ request, use: logins }) => {
    const params = readParams(request, userRoute);
    const id = validateInput(userId, params.userId.replace(/%2F/gi, '/'), 'route.userId');
    const { days, top, pageSize, continuationToken } = readQuery(request, listQuery);
    const options = { pageSize: top ?? pageSize, continuationToken };
    const page = await logins.attempts.page(id, days, options);
    return json(200, pageBody(page, toJson));
  },
});

/** Timer: drops expired day tables, logs what it dropped, pre-creates tomorrow's table. */
export const runLoginRetention = withServices(
  (s) => {
    // Throws while LOGIN_CLEANUP_SCHEDULE is malformed: the timer fired on the default schedule.
    void s.config().logins.cleanupSchedule;
    return s.logins();
  },
  async ({ allTables, attempts }, _timer: Timer, context: InvocationContext): Promise<void> => {
    // Every account keeps day tables (a user's attempts go to one, docs/accounts.md): each drops
    // its own.
    const reports = [];
    for (const tables of allTables) {
      reports.push(await dropExpiredLoginTables(tables, attempts.retentionDays));
    }
    const report = {
      dropped: reports.flatMap((r) => r.dropped),
      alreadyGone: reports.flatMap((r) => r.alreadyGone),
      kept: reports.flatMap((r) => r.kept),
      preCreated: reports[0]!.preCreated,
    };
    context.log(
      `dropExpiredLoginTables: dropped ${report.dropped.length} day table(s)` +
        (report.dropped.length > 0 ? ` (${report.dropped.join(', ')})` : '') +
        `, ${report.alreadyGone.length} already gone, ${report.kept.length} kept, ` +
        `${report.preCreated} ready.`,
    );
  },
);

app.timer('dropExpiredLoginTables', {
  // Read while the file loads: a malformed schedule registers the default one, and the handler,
  // which reads the setting again, then does nothing (503-style failure) until it is fixed.
  schedule: settingOrDefault((config) => config.logins.cleanupSchedule),
  handler: recordingRuns('dropExpiredLoginTables', runLoginRetention),
});
