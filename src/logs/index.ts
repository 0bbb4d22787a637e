/**
 * Logs as hour-named blobs: `POST /logs` accepted into `log-batches` (`ingest/`), flushed as one
 * block per hour blob (`flush/`), read in pages (`query/`); stored formats in `format/`;
 * `entry.ts` the API's entry shape and batch validation; the catalogue `logErrors.ts`.
 *
 * Other folders import this entry; the files of src/logs import each other's files directly.
 */
export { parseLogBatch, toApiEntry, type LogBatch, type LogEntry } from './entry';
export { LogFlusher } from './flush/logFlusher';
export { TagLedgers } from './flush/tagLedger';
export { LOG_LEVELS, parseLevelFilter, type LogLevel } from './format/levels';
export { earliestLineHour } from './ingest/backlog';
export { LogIngest, type AcceptedLogBatch } from './ingest/ingest';
export {
  MAX_LOG_PAGE_SIZE,
  queryLogPage,
  type LogPage,
  type LogPageOptions,
  type LogQuery,
} from './query/query';
