/**
 * Logs as hour-named blobs (docs/logs.md): where `POST /logs` puts batches, the `log-batches`
 * flusher, and pages of a log window. Ingest and flusher are one per process, so concurrent
 * POSTs share messages and flushes share their tag ledgers. With data accounts each hour's blobs
 * go to the account placement names for the hour, and a window is read from every account.
 */
import {
  LogFlusher,
  LogIngest,
  type LogPage,
  type LogPageOptions,
  type LogQuery,
  queryLogPage,
  TagLedgers,
} from '../../../src/logs';
import { lazy, type Foundation } from './foundation';

/** The log pipeline as the adapters use it. */
export interface LogServices {
  /** Where `POST /logs` puts batches: one per process, so concurrent POSTs share messages. */
  logIngest(): LogIngest;
  /** The `log-batches` flusher: one per process, with the tag ledgers its flushes share. */
  logFlusher(): LogFlusher;
  /** Pages of a log window (`GET /logs`). */
  logQuery(): (query: LogQuery, options: LogPageOptions) => Promise<LogPage>;
}

/** Builds the log pipeline over the foundation. */
export function logServices(base: Foundation): LogServices {
  const { config, clients } = base;
  return {
    logIngest: lazy(
      () =>
        new LogIngest({
          queue: clients().queue(config().queues.logBatches),
          container: clients().container(config().containers.logs),
        }),
    ),
    logFlusher: lazy(() => {
      const { logs } = config();
      const spread = base.accounts();
      return new LogFlusher({
        container: clients().container(config().containers.logs),
        ...(spread && { hourContainer: spread.logHourContainer }),
        queue: clients().queue(config().queues.logBatches),
        limits: logs,
        maxMessages: logs.flushMaxMessages,
        maxFlushes: logs.flushMaxRounds,
        ledgers: new TagLedgers(),
      });
    }),
    logQuery: lazy(() => {
      // With several accounts every account's hours are read and merged in key order.
      const containers =
        base.accounts()?.logContainers() ?? clients().container(config().containers.logs);
      return (query: LogQuery, options: LogPageOptions) => queryLogPage(containers, query, options);
    }),
  };
}
