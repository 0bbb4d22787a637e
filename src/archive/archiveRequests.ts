/**
 * The front half of the archive transaction: `POST .../archive` checks the employee exists and
 * enqueues an `archive-requests` message; the queue-triggered worker runs
 * {@link archiveEmployee} for it.
 */
import type { TableClient } from '@azure/data-tables';
import type { QueueClient } from '@azure/storage-queue';
import { z } from 'zod';
import { employeeNotFound, readEmployeeState } from '../directory';
import { ensureQueue, ensureTable } from '../storage/createOnce';
import { departmentPartitionKey, isDepartmentName, isEmployeeId } from '../storage/keys';
import { sendJsonMessage } from '../storage/queue';

/** One `archive-requests` message. */
export interface ArchiveRequestMessage {
  v: 1;
  department: string;
  employeeId: string;
}

const messageSchema = z.object({
  v: z.literal(1),
  department: z.string().refine(isDepartmentName),
  employeeId: z.string().refine(isEmployeeId),
});

/**
 * Reads an `archive-requests` payload (decoded from base64 JSON by the trigger).
 *
 * @throws {Error} naming the problem for anything else (the host poisons it after its retries).
 */
export function parseArchiveRequest(payload: unknown): ArchiveRequestMessage {
  const parsed = messageSchema.safeParse(payload);
  if (!parsed.success) {
    throw new Error(`Not an archive request: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return parsed.data as ArchiveRequestMessage;
}

/**
 * Queues the archiving of an existing employee.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `EmployeeNotFound` when the employee is not in the directory.
 * @throws {DomainError} for storage faults.
 */
export async function requestArchive(
  employees: TableClient,
  queue: QueueClient,
  department: string,
  employeeId: string,
): Promise<void> {
  await ensureTable(employees);
  const state = await readEmployeeState(employees, departmentPartitionKey(department), employeeId);
  if (!state) throw employeeNotFound(department, employeeId);
  await ensureQueue(queue);
  const message: ArchiveRequestMessage = { v: 1, department, employeeId };
  await sendJsonMessage(queue, message);
}
