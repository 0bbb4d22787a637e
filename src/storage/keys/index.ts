/**
 * Every PartitionKey, RowKey, table, queue and blob name, built and parsed here in pure
 * encode/decode pairs, one file per family of keys in this folder. Nothing else in the code base
 * concatenates keys.
 *
 * Rules this module enforces (Azure Table service): PartitionKey and RowKey are at most 1 KiB and
 * may not contain `/`, `\`, `#`, `?` or control characters (U+0000–U+001F, U+007F–U+009F).
 * Free text (emails, last names) is made key-safe with a reversible escape ({@link encodeKeyText}).
 *
 * Parsers of stored keys return `undefined` for a key of another type, so that readers can skip
 * entity types they do not know (heterogeneous tables).
 */
export * from './text';
export { isDepartmentName, isEmployeeId } from './identifiers';
export {
  departmentPartitionKey,
  parseDepartmentPartitionKey,
  DEPARTMENT_ROW_KEY,
  MAX_DEPARTMENT_COUNT_SHARDS,
  departmentCountShardRowKey,
  parseDepartmentCountShardRowKey,
  departmentWithCountRowKeyRange,
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
  parseDepartmentListRowKey,
  employeeRowKey,
  parseEmployeeRowKey,
  employeeRowKeyRange,
  emailRowKey,
  parseEmailRowKey,
  emailRowKeyRange,
  lastNameRowKey,
  parseLastNameRowKey,
  lastNameRowKeyRange,
  reviewRowKey,
  parseReviewRowKey,
  reviewRowKeyRange,
  reviewsRowKeyRange,
  nextEmployeeId,
} from './tables/employees';
export * from './tables/employeeIndex';
export * from './tables/employeePartitions';
export {
  MAX_TICKS,
  MIN_STORABLE_DATE,
  MAX_STORABLE_DATE,
  toTicks,
  fromTicks,
  invertedTicksRowKey,
  parseInvertedTicksRowKey,
  ticksRowKey,
  parseTicksRowKey,
  ticksRowKeyRange,
  utcDayStamp,
  parseUtcDayStamp,
} from './time';
export * from './tables/logins';
export * from './tables/messageStats';
export * from './blobs/logBlobs';
export * from './blobs/photoBlobs';
export * from './tables/sasPolicies';
export * from './queues';
export * from './continuation';
export { foreignContinuationToken } from './keyErrors';
export * from './tables/outbox';
export * from './tables/archive';
export * from './tables/timerRuns';
export * from './tables/placement';
