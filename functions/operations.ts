/**
 * The operations view and the poison queue tools (admin only; docs/operations.md):
 * `GET /operations` (the figures that say whether the eventual parts keep up, read from storage,
 * bounded in requests), `GET /operations/poison/{queue}` (peek, decoded) and
 * `POST /operations/poison/{queue}/replay` (back to the queue; idempotent in effect).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import type { HttpRequest } from '@azure/functions';
import { z } from 'zod';
import { admin } from '../src/identity/access';
import { MAX_REPLAY, type OperationsService } from '../src/operations/operations';
import { MAX_MESSAGES_PER_CALL } from '../src/operations/poisonQueues';
import { json, readJson, readParams, readQuery } from './shared/http';
import { queryInt } from './shared/input';
import { isoInstant } from './shared/output';
import { protectedRoute } from './shared/route';

const overviewBody = z.strictObject({
  generatedAt: isoInstant,
  outbox: z.strictObject({
    departmentsChecked: z.number().int(),
    departmentsTruncated: z.boolean(),
    pendingCap: z.number().int(),
    departments: z.array(
      z.strictObject({
        department: z.string(),
        pending: z.number().int(),
        pendingCapped: z.boolean(),
        oldestAt: isoInstant,
        oldestAgeSeconds: z.number().int(),
        account: z.string().optional(),
      }),
    ),
    accounts: z
      .array(
        z.strictObject({
          account: z.string(),
          departments: z.number().int(),
          pending: z.number().int(),
        }),
      )
      .optional(),
  }),
  poisonQueues: z.array(
    z.strictObject({
      queue: z.string(),
      poisonQueue: z.string(),
      approximateCount: z.number().int(),
    }),
  ),
  timers: z.array(
    z.strictObject({
      timer: z.string(),
      startedAt: isoInstant,
      finishedAt: isoInstant,
      outcome: z.enum(['succeeded', 'failed', 'deferred']),
      error: z.string().optional(),
    }),
  ),
  logBacklog: z.strictObject({
    queue: z.string(),
    approximateCount: z.number().int(),
    oldestQueuedAt: isoInstant.nullable(),
    oldestHour: isoInstant.nullable(),
  }),
  // This instance's storage tries answered ServerBusy since it started (docs/operations.md).
  throttling: z
    .strictObject({
      since: isoInstant,
      throttled: z.number().int(),
      accounts: z.array(
        z.strictObject({
          account: z.string(),
          throttled: z.number().int(),
          scopes: z.array(
            z.strictObject({
              service: z.enum(['table', 'queue', 'blob']),
              resource: z.string(),
              partitionKey: z.string().optional(),
              throttled: z.number().int(),
            }),
          ),
        }),
      ),
    })
    .optional(),
});

/** `GET /operations` → outbox backlog per department, poison counts, timers, log backlog. */
export const getOperations = protectedRoute('getOperations', {
  route: 'operations',
  methods: ['GET'],
  access: admin,
  schemas: {
    responses: {
      200: {
        description:
          'The figures, read from storage in a bounded number of requests (docs/operations.md).',
        body: overviewBody,
      },
    },
  },
  uses: (s) => s.operations(),
  handler: async ({ use: operations }) => json(200, await operations.overview()),
});

const queueRoute = z.object({ queue: z.string().min(1).max(63) });

const messageMeta = {
  messageId: z.string(),
  dequeueCount: z.number().int(),
  insertedOn: isoInstant.optional(),
};

const peekedBody = z.strictObject({
  queue: z.string(),
  items: z.array(
    z.strictObject({ ...messageMeta, body: z.unknown().optional(), text: z.string().optional() }),
  ),
});

const replayedBody = z.strictObject({
  queue: z.string(),
  moved: z.number().int(),
  items: z.array(z.strictObject(messageMeta)),
});

/** The `{queue}` route parameter (the service checks it is one of the app's queues). */
const queueOf = (request: HttpRequest): string => readParams(request, queueRoute).queue;

const inspectQuery = z.strictObject({ max: queryInt(1, MAX_MESSAGES_PER_CALL).optional() });

/** Reads `{queue}` and `?max` (default 32) and peeks. */
async function peekPoison(operations: OperationsService, request: HttpRequest): Promise<unknown> {
  const queue = queueOf(request);
  const { max } = readQuery(request, inspectQuery);
  return { queue, items: await operations.inspectPoison(queue, max ?? MAX_MESSAGES_PER_CALL) };
}

/** `GET /operations/poison/{queue}?max=N` → up to N (≤ 32, default 32) poison messages, decoded. */
export const inspectPoisonQueue = protectedRoute('inspectPoisonQueue', {
  route: 'operations/poison/{queue}',
  methods: ['GET'],
  access: admin,
  schemas: {
    params: queueRoute,
    query: inspectQuery,
    responses: {
      200: {
        description:
          'The first messages of `<queue>-poison`, peeked (nothing hidden or changed): `body` is ' +
          'the decoded payload, `text` the raw text of one that does not decode.',
        body: peekedBody,
      },
    },
  },
  uses: (s) => s.operations(),
  handler: async ({ request, use: operations }) => json(200, await peekPoison(operations, request)),
});

const replayBody = z.strictObject({ max: z.number().int().min(1).max(MAX_REPLAY).optional() });

/** Reads `{queue}` and `{"max"?}` (default 32) and replays. */
async function replayPoison(operations: OperationsService, request: HttpRequest): Promise<unknown> {
  const queue = queueOf(request);
  const { max } = await readJson(request, replayBody);
  const items = await operations.replayPoison(queue, max ?? 32);
  return { queue, moved: items.length, items };
}

/** `POST /operations/poison/{queue}/replay` `{"max"?}` → the messages moved back to `{queue}`. */
export const replayPoisonQueue = protectedRoute('replayPoisonQueue', {
  route: 'operations/poison/{queue}/replay',
  methods: ['POST'],
  access: admin,
  schemas: {
    params: queueRoute,
    body: replayBody,
    responses: {
      200: {
        description:
          'Messages moved from `<queue>-poison` to `<queue>` (each sent, then deleted: a crash ' +
          'between the two yields a duplicate delivery, never a loss).',
        body: replayedBody,
      },
    },
  },
  uses: (s) => s.operations(),
  handler: async ({ request, use: operations }) =>
    json(200, await replayPoison(operations, request)),
});
