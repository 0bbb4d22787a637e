/**
 * The `log-batches` trigger: the process's flusher drains up to N messages per invocation
 * (`logFlusher.ts`, with `delivery.ts`), writes one block per touched hour blob exactly once
 * (`flushMessages.ts`, `hourWriter.ts`, tag ledgers: `tagLedger.ts`), deletes the messages after.
 *
 * Description only: other folders import src/logs's entry, its files import these files.
 */
export {};
