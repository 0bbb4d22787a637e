/**
 * Outbox rows nobody can drain (no readable change: a corrupt `Changes`, an entity of another
 * type or version in the outbox range) are moved out of the outbox into dead-letter records in the
 * same department partition (`deadletter_<row key>`, {@link outboxDeadLetterRowKey}): the record's
 * write and the row's delete are one entity group transaction, so a crash leaves either the row or
 * the record, never neither. Left in the outbox they would be read by every round and, 500 of them,
 * fill a round and stall the department's drain.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  MAX_TRANSACTION_OPERATIONS,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { SYSTEM_PROPERTIES } from '../../storage/tables/entities';
import { tookEffect } from '../../storage/storageFaults';
import { outboxDeadLetterRowKey } from '../../storage/keys/tables/outbox';
import type { UnreadableRow } from './outboxDrainWork';

/** Entity type of a dead-letter record. */
export const OUTBOX_DEAD_LETTER_TYPE = 'IndexOutboxDeadLetter.v1';

/** Rows per transaction: two operations each (the record, the row's delete), within the budget. */
const ROWS_PER_TRANSACTION = Math.floor(MAX_TRANSACTION_OPERATIONS / 2);

/** The dead-letter record of `row`: its properties as read, under its own type and key. */
function deadLetterEntity(partitionKey: string, row: UnreadableRow, at: Date) {
  const kept = Object.fromEntries(
    Object.entries(row.entity).filter(
      ([name]) => !SYSTEM_PROPERTIES.has(name) && !name.includes('@'),
    ),
  );
  return {
    ...kept,
    partitionKey,
    rowKey: outboxDeadLetterRowKey(row.rowKey),
    OriginalEntityType: typeof row.entity.EntityType === 'string' ? row.entity.EntityType : '',
    EntityType: OUTBOX_DEAD_LETTER_TYPE,
    OutboxRowKey: row.rowKey,
    DeadLetteredAt: at,
  };
}

/**
 * Moves `rows` to dead-letter records, each row's delete conditional on the ETag it was read with
 * and in the transaction of its record; logs one line per row moved. A transaction that fails its
 * condition (a concurrent drainer moved a row first) is retried row by row; a row still failing is
 * left for the next round.
 *
 * @returns how many rows were moved.
 * @throws {DomainError} for storage faults.
 */
export async function deadLetterRows(
  table: TableAccess,
  partitionKey: string,
  rows: UnreadableRow[],
  log: (line: string) => void,
  at = new Date(),
): Promise<number> {
  const actionsOf = (row: UnreadableRow): EntityGroupAction[] => [
    ['upsert', deadLetterEntity(partitionKey, row, at), 'Replace'],
    ['delete', { partitionKey, rowKey: row.rowKey }, { etag: row.etag }],
  ];
  let moved = 0;
  const submit = async (chunk: UnreadableRow[]): Promise<boolean> => {
    const done = await tookEffect(() =>
      submitEntityGroupTransaction(table, chunk.flatMap(actionsOf)),
    );
    if (!done) return false;
    moved += chunk.length;
    for (const row of chunk) {
      log(
        `Index outbox row "${row.rowKey}" of partition "${partitionKey}" has no readable change: ` +
          `moved to dead-letter record "${outboxDeadLetterRowKey(row.rowKey)}".`,
      );
    }
    return true;
  };
  for (let start = 0; start < rows.length; start += ROWS_PER_TRANSACTION) {
    const chunk = rows.slice(start, start + ROWS_PER_TRANSACTION);
    if (await submit(chunk)) continue;
    for (const row of chunk) await submit([row]);
  }
  return moved;
}
