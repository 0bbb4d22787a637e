/**
 * What every capability does with tables: the point read and its entity shapes (entities.ts), the
 * ETag-conditional entity group transaction (entityGroupTransaction.ts, changesetConditions.ts),
 * range and partition paging, OData filters, the time-keyed insert of log tails and its suffixes.
 *
 * A library folder: import the module you need; nothing imports this entry.
 */
export {};
