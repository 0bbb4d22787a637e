/**
 * `index-updates` queue messages: a batch of committed (or about-to-be-committed) employee changes.
 *
 * Receivers never trust a message for the new state; they re-read the primary entities. A message
 * only says *which* employees to look at, plus the email and last name they had before, so a
 * worker can find entries the change may have orphaned.
 */
import { z } from 'zod';
import type { EmployeeChange } from '../directory/changes';
import { isDepartmentName, isEmployeeId } from '../storage/keys';
import { MAX_QUEUE_MESSAGE_BYTES } from '../storage/queue';

const changeSchema = z.object({
  department: z.string().refine(isDepartmentName),
  employeeId: z.string().refine(isEmployeeId),
  previous: z
    .object({ email: z.string().max(1024).optional(), lastName: z.string().max(1024).optional() })
    .optional(),
  reason: z.enum(['created', 'updated', 'deleted', 'imported', 'archived', 'moved', 'announced']),
});

const messageSchema = z.object({ v: z.literal(1), changes: z.array(changeSchema).min(1) });

/** A change as the queue carries it: a directory change, or an announcement before a write. */
export type IndexChange = Omit<EmployeeChange, 'reason'> & {
  reason: EmployeeChange['reason'] | 'announced';
};

/** One `index-updates` message. */
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
    throw new Error(
      `Not an index-updates message: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  }
  return parsed.data as IndexUpdateMessage;
}

/**
 * Splits changes into as few messages as fit the 64 KiB queue limit after base64 encoding
 * (an import of 1,000 employees becomes a handful of messages, not 1,000).
 *
 * @param maxBytes - encoded size limit per message (tests pass a small one).
 * @throws {Error} when a single change alone does not fit (it cannot: fields are bounded).
 */
export function packIndexChanges(
  changes: readonly IndexChange[],
  maxBytes = MAX_QUEUE_MESSAGE_BYTES,
): IndexUpdateMessage[] {
  const messages: IndexUpdateMessage[] = [];
  // base64(JSON) grows by 4/3; the JSON is the wrapper plus the items joined by commas.
  const wrapperBytes = Buffer.byteLength(JSON.stringify({ v: 1, changes: [] }));
  const encodedSize = (jsonBytes: number): number => Math.ceil(jsonBytes / 3) * 4;
  let current: IndexChange[] = [];
  let currentJsonBytes = wrapperBytes;
  for (const change of changes) {
    const itemBytes = Buffer.byteLength(JSON.stringify(change));
    if (encodedSize(wrapperBytes + itemBytes) > maxBytes) {
      throw new Error('One index change is larger than a message.');
    }
    const separator = current.length > 0 ? 1 : 0;
    if (current.length > 0 && encodedSize(currentJsonBytes + separator + itemBytes) > maxBytes) {
      messages.push({ v: 1, changes: current });
      current = [];
      currentJsonBytes = wrapperBytes;
    }
    currentJsonBytes += (current.length > 0 ? 1 : 0) + itemBytes;
    current.push(change);
  }
  if (current.length > 0) messages.push({ v: 1, changes: current });
  return messages;
}
