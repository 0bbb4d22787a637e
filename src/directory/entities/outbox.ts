/**
 * The index outbox row (transactional outbox pattern): every directory write that changes what the
 * asynchronous indexes hold adds one to its own entity group transaction, in the department's
 * partition. A row names the employees that changed (one for a single write, all of an import
 * chunk) and the emails and last names the indexes may have to add or drop: a hint of where to
 * look, never the new state. RowKey `outbox_<employeeId>_<sequence>` (storage/keys/tables/
 * outbox.ts): a fresh key per write, so an SDK retry of a committed transaction cannot fail on
 * it; the drainer does not depend on the order.
 *
 * Why: docs/queues.md "Transactional outbox".
 * Glossary: "outbox" (docs/glossary.md).
 */
import { randomBytes } from 'node:crypto';
import type { TableEntity } from '@azure/data-tables';
import { isEmployeeId } from '../../storage/keys/identifiers';
import { outboxRowKey, parseOutboxRowKey } from '../../storage/keys/tables/outbox';
import type { EmployeeChange } from '../changes';
import { EntityTypes, isEntityOfType } from './entityTypes';
import { outboxRowTooSmall } from '../directoryErrors';
import type { EntityGroupAction } from '../../storage/tables/entityGroupTransaction';
import type { StoredProperties } from '../../storage/tables/entities';

/** One change as the outbox records it. */
export interface OutboxChange {
  employeeId: string;
  reason: EmployeeChange['reason'];
  /** Email and last name after the change; absent when the employee left the partition. */
  current?: { email: string; lastName: string };
  /** Email and last name before the change, when it had any. */
  previous?: { email?: string; lastName?: string };
}

/** A stored outbox row: its changes, keys and ETag (its delete is conditional on it). */
export interface OutboxRow {
  rowKey: string;
  etag: string;
  changes: OutboxChange[];
}

/**
 * Characters of one row's change list (`Changes`, JSON): a string property holds 32 K UTF-16
 * characters. A single change is at most ~1,000 (two emails of 254, two names of 200).
 */
export const MAX_OUTBOX_CHANGES_CHARS = 30_000;

/** A fresh, unique sequence: milliseconds since 1970 in base 36 (9 characters), then 10 hex. */
export function newOutboxSequence(now: number = Date.now()): string {
  return now.toString(36).padStart(9, '0') + randomBytes(5).toString('hex');
}

/**
 * When the row of a sequence was written (ms since 1970): the inverse of
 * {@link newOutboxSequence}'s first 9 characters, for the index lag metric. Undefined for a
 * sequence not made that way.
 */
export function outboxSequenceTime(sequence: string): number | undefined {
  if (!/^[0-9a-z]{9}[0-9a-f]{10}$/.test(sequence)) return undefined;
  const at = parseInt(sequence.slice(0, 9), 36);
  return Number.isSafeInteger(at) ? at : undefined;
}

interface StoredChange {
  id: string;
  r: string;
  e?: string;
  n?: string;
  pe?: string;
  pn?: string;
}

function storedChange(change: OutboxChange): StoredChange {
  return {
    id: change.employeeId,
    r: change.reason,
    ...(change.current ? { e: change.current.email, n: change.current.lastName } : {}),
    ...(change.previous?.email !== undefined ? { pe: change.previous.email } : {}),
    ...(change.previous?.lastName !== undefined ? { pn: change.previous.lastName } : {}),
  };
}

/**
 * Cuts changes into lists that each fit one row ({@link MAX_OUTBOX_CHANGES_CHARS}); an import
 * chunk's changes usually fit one.
 */
export function packOutboxChanges(changes: readonly OutboxChange[]): OutboxChange[][] {
  const packed: OutboxChange[][] = [];
  let current: OutboxChange[] = [];
  let chars = 2;
  for (const change of changes) {
    const size = JSON.stringify(storedChange(change)).length + 1;
    if (current.length > 0 && chars + size > MAX_OUTBOX_CHANGES_CHARS) {
      packed.push(current);
      current = [];
      chars = 2;
    }
    current.push(change);
    chars += size;
  }
  if (current.length > 0) packed.push(current);
  return packed;
}

/**
 * The outbox row of some changes of one partition (a new RowKey each call, named after the first
 * change's employee).
 *
 * @throws {Error} for no changes, or more than fit one row (see {@link packOutboxChanges}).
 */
export function outboxEntity(
  partitionKey: string,
  changes: readonly OutboxChange[],
  sequence: string = newOutboxSequence(),
): TableEntity<StoredProperties> {
  const json = JSON.stringify(changes.map(storedChange));
  if (changes.length === 0 || json.length > MAX_OUTBOX_CHANGES_CHARS) {
    throw outboxRowTooSmall(MAX_OUTBOX_CHANGES_CHARS);
  }
  return {
    partitionKey,
    rowKey: outboxRowKey(changes[0]!.employeeId, sequence),
    EntityType: EntityTypes.indexOutbox,
    Changes: json,
  };
}

/** The transaction operation that records changes in the outbox (an upsert of a fresh key). */
export function outboxAction(
  partitionKey: string,
  changes: OutboxChange | readonly OutboxChange[],
): EntityGroupAction {
  return ['upsert', outboxEntity(partitionKey, [changes].flat()), 'Replace'];
}

/**
 * The operations that record many changes in the outbox: one row per {@link packOutboxChanges}
 * list (an import chunk's or a grouped delete's changes usually fit one).
 */
export function outboxActions(
  partitionKey: string,
  changes: readonly OutboxChange[],
): EntityGroupAction[] {
  return packOutboxChanges(changes).map((packed) => outboxAction(partitionKey, packed));
}

const REASONS: ReadonlySet<string> = new Set<EmployeeChange['reason']>([
  'created',
  'updated',
  'deleted',
  'imported',
  'archived',
  'moved',
]);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function readChange(item: unknown): OutboxChange | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const stored = item as Record<string, unknown>;
  const employeeId = text(stored.id);
  if (employeeId === undefined || !isEmployeeId(employeeId)) return undefined;
  const reason = text(stored.r);
  const [email, lastName] = [text(stored.e), text(stored.n)];
  const [previousEmail, previousLastName] = [text(stored.pe), text(stored.pn)];
  const previous = {
    ...(previousEmail !== undefined ? { email: previousEmail } : {}),
    ...(previousLastName !== undefined ? { lastName: previousLastName } : {}),
  };
  return {
    employeeId,
    reason:
      reason !== undefined && REASONS.has(reason) ? (reason as OutboxChange['reason']) : 'updated',
    ...(email !== undefined && lastName !== undefined ? { current: { email, lastName } } : {}),
    ...(Object.keys(previous).length > 0 ? { previous } : {}),
  };
}

/**
 * Reads a stored outbox row; `undefined` for anything else (another type). Unreadable changes
 * are dropped: the row still names the partition as dirty, and its delete clears it.
 */
export function readOutboxRow(
  entity: StoredProperties & { rowKey?: string; etag?: string },
): OutboxRow | undefined {
  if (
    parseOutboxRowKey(entity.rowKey ?? '') === undefined ||
    !isEntityOfType(entity, EntityTypes.indexOutbox) ||
    entity.etag === undefined
  ) {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text(entity.Changes) ?? '[]');
  } catch {
    parsed = [];
  }
  const changes = (Array.isArray(parsed) ? parsed : [])
    .map(readChange)
    .filter((c): c is OutboxChange => c !== undefined);
  return { rowKey: entity.rowKey!, etag: entity.etag, changes };
}
