/**
 * The `index-updates` queue: its messages (`indexMessages.ts`: v1 reconcile, v2 outbox nudge), the
 * directory's change sink that sends nudges (`queueChangeSink.ts`), the handler of one message
 * (`indexUpdates.ts`).
 *
 * Description only: other folders import src/indexing's entry, its files import these files.
 */
export {};
