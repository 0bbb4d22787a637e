/**
 * `index-updates` queue messages, two versions:
 *
 * - `{"v":2,"departments":[...]}`: a nudge — drain these departments' index outboxes
 *   (drain/outboxDrain.ts); the message only says where to look. A nudge sent to outlive a drain
 *   lease's holder names it (`"holder"`, drain/leasedDrain.ts); a write's delayed cover says
 *   which commits it answers for (`"before"`, queueChangeSink.ts).
 * - `{"v":1,"changes":[...]}`: a batch of employee changes, as the code before the outbox sent
 *   them (and its pre-write announcements). Nothing sends them any more; those a deploy leaves on
 *   the queue are still worked off (indexUpdates.ts).
 *
 * Receivers never trust a message for the new state; they re-read the primary entities. A message
 * only says *which* employees to look at, plus the email and last name they had before.
 */
import { z } from 'zod';
import type { EmployeeChange } from '../../directory';
import { isDepartmentName, isEmployeeId } from '../../storage/keys/identifiers';
import { CoalescingSender, type CoalescingSenderOptions } from '../../storage/coalescingSender';
import { MAX_QUEUE_MESSAGE_BYTES } from '../../storage/queue';
import { TRACEPARENT_FIELD_BYTES } from '../../telemetry/tracing';
import { invalidIndexMessage, invalidOutboxNudge } from '../indexingErrors';

const changeSchema = z.object({
  department: z.string().refine(isDepartmentName),
  employeeId: z.string().refine(isEmployeeId),
  previous: z
    .object({ email: z.string().max(1024).optional(), lastName: z.string().max(1024).optional() })
    .optional(),
  reason: z.enum(['created', 'updated', 'deleted', 'imported', 'archived', 'moved', 'announced']),
});

const messageSchema = z.object({ v: z.literal(1), changes: z.array(changeSchema).min(1) });

/** A change as a v1 message carries it: a directory change, or an announcement before a write. */
export type IndexChange = Omit<EmployeeChange, 'reason'> & {
  reason: EmployeeChange['reason'] | 'announced';
};

/** One v1 `index-updates` message (read only). */
export interface IndexUpdateMessage {
  v: 1;
  changes: IndexChange[];
}

/**
 * Reads a message payload (already decoded from base64 JSON by the trigger).
 *
 * @throws {Error} naming the problem when the payload is not an index-updates message.
 */
export function parseIndexUpdateMessage(payload: unknown): IndexUpdateMessage {
  const parsed = messageSchema.safeParse(payload);
  if (!parsed.success) {
    throw invalidIndexMessage(parsed.error.issues[0]?.message);
  }
  return parsed.data as IndexUpdateMessage;
}

/** Characters of a lease holder's id in a nudge (a UUID has 36). */
const MAX_HOLDER_CHARS = 64;

const nudgeSchema = z.object({
  v: z.literal(2),
  departments: z.array(z.string().refine(isDepartmentName)).min(1),
  holder: z.string().min(1).max(MAX_HOLDER_CHARS).optional(),
  before: z.number().int().nonnegative().optional(),
});

/** A nudge: drain the index outboxes of these departments. */
export interface OutboxNudge {
  v: 2;
  departments: string[];
  /** The drain-lease holder this nudge was sent to outlive (its single department's lease). */
  holder?: string;
  /**
   * A write's cover: it answers for the outbox rows written before this moment (ms since 1970,
   * the writing process's clock, as the rows' keys carry it); later rows have covers of their own.
   */
  before?: number;
}

/**
 * Reads any `index-updates` payload: a nudge (v2) or a change batch (v1).
 *
 * @throws {Error} naming the problem when the payload is neither.
 */
export function parseIndexQueueMessage(payload: unknown): OutboxNudge | IndexUpdateMessage {
  if ((payload as { v?: unknown } | null)?.v !== 2) return parseIndexUpdateMessage(payload);
  const parsed = nudgeSchema.safeParse(payload);
  if (!parsed.success) {
    throw invalidOutboxNudge(parsed.error.issues[0]?.message);
  }
  return parsed.data;
}

/**
 * Bytes of the nudge wrapper `{"v":2,"departments":[]}` around the department names, with room for
 * the optional `traceparent` (src/telemetry/tracing.ts; readers ignore it, old messages lack it)
 * and a cover's `before`.
 */
const NUDGE_WRAPPER_BYTES =
  Buffer.byteLength(JSON.stringify({ v: 2, departments: [], before: Number.MAX_SAFE_INTEGER })) +
  TRACEPARENT_FIELD_BYTES;

/**
 * Bytes the department names of one nudge may take together, so that its base64 form stays within
 * `maxBytes`.
 */
export function nudgeBudget(maxBytes = MAX_QUEUE_MESSAGE_BYTES): number {
  return Math.floor(maxBytes / 4) * 3 - NUDGE_WRAPPER_BYTES;
}

/** Bytes one department name adds to a nudge: its JSON and the comma before it. */
export function nudgeDepartmentBytes(department: string): number {
  return Buffer.byteLength(JSON.stringify(department)) + 1;
}

/** A sender of department nudges (covers, the prompt path), each within one queue message. */
export function nudgeSender(
  send: CoalescingSenderOptions<string>['send'],
): CoalescingSender<string> {
  return new CoalescingSender<string>({
    send,
    itemBytes: nudgeDepartmentBytes,
    budgetBytes: nudgeBudget(),
  });
}
