/**
 * Pending-work markers: which departments hold outbox rows that no stored queue message stands
 * for. One small row per department in one partition of `Employees` in home (`.pending`, beside
 * the `index-updates` queue whose message it stands in for), written only when that message is
 * missing — a write's cover could not be stored, a queue drain failed or came back (the message
 * may end poisoned) — and removed, conditional on the version read, once a drain that started
 * after that read found the outbox empty. So the frequent sweep and the operations view read one
 * partition, not every department: their cost follows the failures, not the organisation.
 *
 * Why: docs/queues.md "Pending work without walking every department".
 * Glossary: "pending marker" (docs/glossary.md).
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { ensureTable } from '../../storage/createOnce';
import {
  OUTBOX_WALK_ROW_KEY,
  parsePendingMarkerRowKey,
  PENDING_WORK_PARTITION_KEY,
  pendingMarkerRowKey,
} from '../../storage/keys/tables/outbox';
import { tookEffect, withStorageErrors } from '../../storage/storageFaults';
import type { StoredEntity } from '../../storage/tables/entities';
import { readWholeRange } from '../../storage/tables/rangePages';

/** `EntityType` of a marker. */
export const PENDING_MARKER_ENTITY_TYPE = 'IndexPendingMarker.v1';

/** Why a department was marked (for the operator; the sweep treats every reason alike). */
export type PendingReason =
  /** A write's cover could not be stored (after the SDK's retries). */
  | 'cover-failed'
  /** A queue drain of the department failed, or its message came back (may end poisoned). */
  | 'drain-failed'
  /** The sweep's own drain of it failed. */
  | 'sweep-failed';

/** A marker as read, with the version its removal is conditional on. */
export interface PendingMarker {
  department: string;
  reason: string;
  markedAt: Date;
  etag: string;
}

/** The `.pending` partition as one query reads it: the markers and the walk's checkpoint. */
export interface PendingWork {
  markers: PendingMarker[];
  /** The outbox walk's checkpoint row (outboxWalk.ts), when there is one. */
  checkpoint?: StoredEntity;
}

/**
 * Marks `department` as holding rows no message stands for (an upsert: marking twice is marking
 * once, and each mark gives the row a new version, so a removal decided before it fails).
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
export async function markPending(
  employees: TableAccess,
  department: string,
  reason: PendingReason,
  now: () => number = Date.now,
): Promise<void> {
  await ensureTable(employees);
  await withStorageErrors(() =>
    employees.upsertEntity(
      {
        partitionKey: PENDING_WORK_PARTITION_KEY,
        rowKey: pendingMarkerRowKey(department),
        EntityType: PENDING_MARKER_ENTITY_TYPE,
        Reason: reason,
        MarkedAt: new Date(now()),
      },
      'Replace',
    ),
  );
}

/**
 * Reads the `.pending` partition whole (one request while it holds fewer than 1,000 rows).
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
export async function readPendingWork(employees: TableAccess): Promise<PendingWork> {
  const rows = await readWholeRange(employees, {
    partitionKey: PENDING_WORK_PARTITION_KEY,
    ge: ' ',
    lt: '\u007f',
  });
  const markers: PendingMarker[] = [];
  let checkpoint: StoredEntity | undefined;
  for (const row of rows) {
    if (row.rowKey === OUTBOX_WALK_ROW_KEY) {
      checkpoint = row;
      continue;
    }
    const department = parsePendingMarkerRowKey(row.rowKey);
    if (department === undefined || row.etag === undefined) continue;
    const at = new Date(row.MarkedAt as string | Date);
    markers.push({
      department,
      reason: typeof row.Reason === 'string' ? row.Reason : 'unknown',
      markedAt: Number.isNaN(at.getTime()) ? new Date(0) : at,
      etag: row.etag,
    });
  }
  return { markers, checkpoint };
}

/**
 * Removes a marker if it is still the version read: a mark written since (a newer failure) stays.
 * Call it only after a drain that started after the marker was read found the outbox empty.
 *
 * @returns whether it was removed (false: marked again meanwhile, or already gone).
 * @throws {DomainError} for storage faults other than a lost race.
 */
export async function clearPendingMarker(
  employees: TableAccess,
  marker: PendingMarker,
): Promise<boolean> {
  return tookEffect(() =>
    employees.deleteEntity(PENDING_WORK_PARTITION_KEY, pendingMarkerRowKey(marker.department), {
      etag: marker.etag,
    }),
  );
}
