/**
 * Step 1 of a drain round (src/indexing/drain/outboxDrain.ts): the department's outbox rows, and
 * the keys they name — employees, emails and last names — that the round works on.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { toDomainError, withStorageErrors } from '../../storage/storageFaults';
import { rowKeyRangeFilter } from '../../storage/tables/filters';
import { normalizeEmail, normalizeLastName } from '../../storage/keys/text';
import { outboxRowKeyRange, parseOutboxRowKey } from '../../storage/keys/tables/outbox';
import { outboxSequenceTime, readOutboxRow, type OutboxRow } from '../../directory/entities';

/** Rows read per round; a larger outbox is drained in several rounds. */
export const MAX_ROWS_PER_ROUND = 500;
/**
 * Changes taken per round by default (an import's rows hold many): bounds the reads and writes of
 * a round, and so its time (src/indexing/drain/leasedDrain.ts checks the time between rounds).
 */
export const MAX_CHANGES_PER_ROUND = 500;

/**
 * Last names taken per round by default: a round must write every member list it names (each one
 * org-wide, which other departments' drains write too), so fewer names make a round that loses
 * fewer races and takes bounded time.
 */
export const MAX_LAST_NAMES_PER_ROUND = 100;

/** The keys one round works on. */
export interface Work {
  rows: OutboxRow[];
  employeeIds: string[];
  emails: string[];
  lastNames: string[];
  /** Employees some change removed from the partition: read the employee entity directly. */
  maybeGone: Set<string>;
  /**
   * Employees and emails that only new employees bring (creates and imports, not carried over
   * from a lost round): their index entries are expected absent, so they are written as creates
   * without reading them first — a create fails where an entry exists, and the round is lost and
   * run again with reads.
   */
  fresh: Set<string>;
}

/** An outbox row nobody can drain: not an outbox row this code reads, or no readable change. */
export interface UnreadableRow {
  rowKey: string;
  etag: string;
  /** The entity as read (its properties go into the dead-letter record). */
  entity: Record<string, unknown>;
}

/**
 * The partition's outbox rows, up to {@link MAX_ROWS_PER_ROUND} rows and `maxChanges` changes (an
 * import chunk's row holds ~47; rows are taken whole, and always at least one) and `maxLastNames`
 * last names. Entities in the range without a readable change are returned apart (`unreadable`,
 * counted among the rows): they carry nothing to drain, and the round moves them to dead-letter
 * records (src/indexing/drain/outboxDeadLetter.ts) — left in place they would fill every round and
 * stall the department.
 */
export async function readOutbox(
  table: TableAccess,
  partitionKey: string,
  maxChanges = MAX_CHANGES_PER_ROUND,
  maxLastNames = MAX_LAST_NAMES_PER_ROUND,
): Promise<{ rows: OutboxRow[]; unreadable: UnreadableRow[]; more: boolean }> {
  const rows: OutboxRow[] = [];
  const unreadable: UnreadableRow[] = [];
  let changes = 0;
  const names = new Set<string>();
  const entities = table.listEntities<Record<string, unknown>>({
    queryOptions: { filter: rowKeyRangeFilter(partitionKey, outboxRowKeyRange()) },
  });
  try {
    for await (const entity of entities) {
      const taken = rows.length + unreadable.length;
      const row = readOutboxRow(entity);
      if (!row || row.changes.length === 0) {
        if (taken >= MAX_ROWS_PER_ROUND) return { rows, unreadable, more: true };
        unreadable.push({ rowKey: entity.rowKey ?? '', etag: entity.etag ?? '', entity });
        continue;
      }
      // Full: the rest waits for the next round (the query stops here, fetching no more pages).
      const rowNames = row.changes.flatMap(lastNamesOf).filter((name) => !names.has(name));
      const full =
        taken >= MAX_ROWS_PER_ROUND ||
        changes + row.changes.length > maxChanges ||
        names.size + new Set(rowNames).size > maxLastNames;
      if (full && taken > 0) return { rows, unreadable, more: true };
      rows.push(row);
      changes += row.changes.length;
      for (const name of rowNames) names.add(name);
    }
  } catch (error) {
    throw toDomainError(error);
  }
  return { rows, unreadable, more: false };
}

/**
 * Whether the partition holds an outbox row to drain (dead-letter candidates included): one
 * query, so a department with nothing to drain costs one request (src/indexing/drain/leasedDrain.ts
 * reads it before the lease). With `before` (a write's cover,
 * src/indexing/queue/queueChangeSink.ts), only rows written before that moment count — the rows'
 * keys carry when they were written — and a row of unknown age counts; the rows of one page are
 * looked at (more than a page: true).
 *
 * @throws {DomainError} for storage faults.
 */
export async function outboxPending(
  table: TableAccess,
  partitionKey: string,
  before?: number,
): Promise<boolean> {
  return withStorageErrors(async () => {
    const filter = rowKeyRangeFilter(partitionKey, outboxRowKeyRange());
    const pages = table
      .listEntities({ queryOptions: { filter, select: ['RowKey'] } })
      .byPage({ maxPageSize: before === undefined ? 1 : 1000 });
    for await (const page of pages) {
      // A page may come back empty with a continuation (the service's time or range limits):
      // that is no answer yet, so the next page is asked for.
      if (page.length === 0) continue;
      if (before === undefined || page.continuationToken !== undefined) return true;
      return page.some((entity) => {
        const at = outboxSequenceTime(parseOutboxRowKey(entity.rowKey ?? '')?.sequence ?? '');
        return at === undefined || at < before;
      });
    }
    return false;
  });
}

/** The member lists a change asks to look at (normalised last names). */
function lastNamesOf(change: OutboxRow['changes'][number]): string[] {
  // An update that kept the last name leaves the membership as the earlier change made it
  // (that change's row, if not drained yet, names the last name itself).
  const keptName = change.reason === 'updated' && change.previous?.lastName === undefined;
  return [keptName ? undefined : change.current?.lastName, change.previous?.lastName]
    .filter((name): name is string => name !== undefined)
    .map(normalizeLastName);
}

/**
 * The keys of a round: those the rows name, plus those of a lost round carried over. A key is
 * fresh when only new employees bring it (see {@link Work.fresh}).
 */
export function workOf(rows: OutboxRow[], carried?: Work): Work {
  const employeeIds = new Set<string>(carried?.employeeIds);
  const emails = new Set<string>(carried?.emails);
  const lastNames = new Set<string>(carried?.lastNames);
  const maybeGone = new Set<string>(carried?.maybeGone);
  const fresh = new Set<string>();
  // A key seen before (in a carried-over round, or in another change) is never fresh.
  const seen = new Set<string>([
    ...[...employeeIds].map((id) => `id:${id}`),
    ...[...emails].map((email) => `email:${email}`),
  ]);
  const see = (key: string, isFresh: boolean): void => {
    if (isFresh && !seen.has(key)) fresh.add(key);
    else fresh.delete(key);
    seen.add(key);
  };
  for (const change of rows.flatMap((row) => row.changes)) {
    const isNew = change.reason === 'created' || change.reason === 'imported';
    see(`id:${change.employeeId}`, isNew);
    if (change.current) see(`email:${normalizeEmail(change.current.email)}`, isNew);
    if (change.previous?.email !== undefined) {
      see(`email:${normalizeEmail(change.previous.email)}`, false);
    }
    employeeIds.add(change.employeeId);
    if (!change.current) maybeGone.add(change.employeeId);
    for (const email of [change.current?.email, change.previous?.email]) {
      if (email !== undefined) emails.add(normalizeEmail(email));
    }
    for (const name of lastNamesOf(change)) lastNames.add(name);
  }
  return {
    rows,
    employeeIds: [...employeeIds].sort(),
    emails: [...emails].sort(),
    lastNames: [...lastNames].sort(),
    maybeGone,
    fresh,
  };
}
