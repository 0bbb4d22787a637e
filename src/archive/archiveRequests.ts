/**
 * The front half of the archive transaction: `POST .../archive` checks the employee exists and
 * enqueues an `archive-requests` message; the queue-triggered worker runs
 * {@link archiveEmployee} for it.
 */
import type { TableAccess } from '../storage/tables/tableAccess';
import type { QueueClient } from '@azure/storage-queue';
import { z } from 'zod';
import { employeeNotFound } from '../directory';
import { ensureQueue, ensureTable } from '../storage/createOnce';
import { departmentPartitionKey } from '../storage/keys/tables/employees';
import { isDepartmentName, isEmployeeId } from '../storage/keys/identifiers';
import { isIncarnation, LEGACY_INCARNATION } from '../storage/keys/tables/archive';
import { sendJsonMessage } from '../storage/queue';
import { incarnationOf, readEmployeeState } from '../directory/entities';
import { withTraceparent } from '../telemetry/tracing';
import { invalidArchiveRequest } from './archiveErrors';

/**
 * One `archive-requests` message: v2 names the incarnation of the employee the request was
 * accepted for (docs/queues.md "Incarnations"); a v1 message (enqueued before incarnations) only
 * ever archives a legacy employee, so it cannot take an employee created after it was enqueued.
 */
export type ArchiveRequestMessage =
  | { v: 2; department: string; employeeId: string; incarnation: string }
  | { v: 1; department: string; employeeId: string };

const target = {
  department: z.string().refine(isDepartmentName),
  employeeId: z.string().refine(isEmployeeId),
};
const messageSchema = z.discriminatedUnion('v', [
  z.object({ v: z.literal(2), ...target, incarnation: z.string().refine(isIncarnation) }),
  z.object({ v: z.literal(1), ...target }),
]);

/** The incarnation a request archives: the one it names, legacy for a v1 message. */
export function requestedIncarnation(message: ArchiveRequestMessage): string {
  return message.v === 1 ? LEGACY_INCARNATION : message.incarnation;
}

/**
 * Reads an `archive-requests` payload (decoded from base64 JSON by the trigger).
 *
 * @throws {Error} naming the problem for anything else (the host poisons it after its retries).
 */
export function parseArchiveRequest(payload: unknown): ArchiveRequestMessage {
  const parsed = messageSchema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const [problem] = parsed.error.issues;
  throw invalidArchiveRequest(problem ? problem.message : 'invalid');
}

/**
 * Queues the archiving of an existing employee: of its current incarnation, so a redelivered
 * message never archives an employee created again with the id later.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `EmployeeNotFound` when the employee is not in the directory.
 * @throws {DomainError} for storage faults.
 */
export async function requestArchive(
  employees: TableAccess,
  queue: QueueClient,
  department: string,
  employeeId: string,
): Promise<void> {
  await ensureTable(employees);
  const state = await readEmployeeState(employees, departmentPartitionKey(department), employeeId);
  if (!state) throw employeeNotFound(department, employeeId);
  await ensureQueue(queue);
  const message: ArchiveRequestMessage = {
    v: 2,
    department,
    employeeId,
    incarnation: incarnationOf(state.entity),
  };
  // The worker continues this request's trace (src/telemetry/tracing.ts); readers ignore the field.
  await sendJsonMessage(queue, withTraceparent(message));
}
