/**
 * Packing work into entity group transactions: a transaction holds at most 100 operations (less
 * the relocation fence's, {@link MAX_TRANSACTION_OPERATIONS}) of one partition, so writes that
 * could share one are cut into as few as fit. One routine for every caller that packs, so the
 * limit and the partition rule are kept in one place; the callers say only what an item costs.
 */
import { MAX_TRANSACTION_OPERATIONS } from './entityGroupTransaction';

/** How {@link packTransactions} measures and places items. */
export interface TransactionPacking<T> {
  /**
   * The operations `item` adds to `group` (the items packed before it in the same transaction,
   * possibly none): an item may share an operation with earlier ones (one index row per name).
   */
  operations: (item: T, group: readonly T[]) => number;
  /** The partition an item writes to; items of different partitions never share a transaction. */
  partition?: (item: T) => string;
  /** Operations one transaction may hold (default {@link MAX_TRANSACTION_OPERATIONS}). */
  budget?: number;
}

/**
 * Cuts `items` into transactions (pure): per partition, in the order given, each item joins the
 * current transaction while the operations fit the budget, else starts the next one. An item is
 * never split; one over the budget by itself gets a transaction of its own (the caller decides
 * what to do with it). Partitions come in the order of their first item.
 *
 * @returns the items of each transaction; none for no items.
 */
export function packTransactions<T>(items: readonly T[], packing: TransactionPacking<T>): T[][] {
  const budget = packing.budget ?? MAX_TRANSACTION_OPERATIONS;
  const byPartition = new Map<string, T[]>();
  for (const item of items) {
    const key = packing.partition?.(item) ?? '';
    const list = byPartition.get(key);
    if (list) list.push(item);
    else byPartition.set(key, [item]);
  }
  const transactions: T[][] = [];
  for (const partitionItems of byPartition.values()) {
    let group: T[] = [];
    let operations = 0;
    for (const item of partitionItems) {
      const added = packing.operations(item, group);
      if (group.length > 0 && operations + added > budget) {
        transactions.push(group);
        group = [];
        operations = packing.operations(item, group);
      } else {
        operations += added;
      }
      group.push(item);
    }
    if (group.length > 0) transactions.push(group);
  }
  return transactions;
}
