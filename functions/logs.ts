/**
 * `POST /api/logs` (ingest a batch) and `GET /api/logs` (time-range query): API.md "Logs".
 * Log lines live in hour-named blobs, not in a table (docs/logs.md).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import {
  type AcceptedLogBatch,
  LOG_LEVELS,
  MAX_LOG_PAGE_SIZE,
  parseLevelFilter,
  parseLogBatch,
  toApiEntry,
} from '../src/logs';
import { json, readJson, readQuery } from './shared/http';
import { admin, anyOf, telemetryWriter } from '../src/identity/access';
import { queryInt } from './shared/input';
import { pageOf, pageBody } from './shared/output';
import { protectedRoute } from './shared/route';

const isoTime = z.iso.datetime({
  offset: true,
  error: 'is required: an ISO 8601 time with Z or an offset, e.g. 2026-11-22T15:04:00Z',
});

const logQuerySchema = z.object({
  source: z.string({ error: 'is required' }),
  from: isoTime,
  to: isoTime,
  level: z.string().optional(),
  pageSize: queryInt(1, MAX_LOG_PAGE_SIZE).optional(),
  continuationToken: z.string().min(1).max(4096).optional(),
});

/** `POST /logs`'s answer (src/logs/ingest/ingest.ts `AcceptedLogBatch`). */
const acceptedJson = z.strictObject({
  batchId: z.string(),
  entries: z.number().int().min(1),
  messages: z.number().int(),
  staged: z.boolean(),
}) satisfies z.ZodType<AcceptedLogBatch>;

/** A stored entry: `at`, `level`, `message` and the extra fields it was sent with. */
const entryJson = z.looseObject({
  at: z.iso.datetime(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
});

/** `POST /logs`: 202 `{batchId, entries, messages, staged}` once the batch is on the queue. */
export const postLogs = protectedRoute('postLogs', {
  route: 'logs',
  methods: ['POST'],
  access: anyOf(telemetryWriter),
  // The batch is checked entry by entry by parseLogBatch (src/logs), not by a zod schema.
  schemas: {
    body: z.unknown(),
    responses: { 202: { description: 'The batch is durably accepted.', body: acceptedJson } },
  },
  uses: (s) => ({ settings: s.config().logs, ingest: s.logIngest() }),
  handler: async ({ request, use: { settings, ingest } }) => {
    const body = await readJson(request, z.unknown(), settings.maxBatchBytes);
    const batch = parseLogBatch(body, settings);
    const accepted = await ingest.accept(batch);
    return json(202, accepted);
  },
});

/**
 * `GET /logs?source&from&to&level&pageSize&continuationToken`: `{items, continuationToken}` in
 * time order, one bounded page per request (src/logs/query/query.ts).
 */
export const getLogs = protectedRoute('getLogs', {
  route: 'logs',
  methods: ['GET'],
  access: admin,
  schemas: {
    query: logQuerySchema,
    responses: {
      200: {
        description:
          'A page of the entries of the window, in time order; pass continuationToken back for the next page.',
        body: pageOf(entryJson),
      },
    },
  },
  uses: (s) => s.logQuery(),
  handler: async ({ request, use: queryLogs }) => {
    const query = readQuery(request, logQuerySchema);
    const page = await queryLogs(
      {
        source: query.source,
        from: new Date(query.from),
        to: new Date(query.to),
        levels: query.level === undefined ? undefined : parseLevelFilter(query.level),
      },
      { pageSize: query.pageSize, continuationToken: query.continuationToken },
    );
    return json(200, pageBody(page, toApiEntry), { 'cache-control': 'no-store' });
  },
});
