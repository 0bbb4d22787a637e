/**
 * Accepting a batch (`ingest.ts`): `log-batches` messages, inline, compressed or a pointer to a
 * staged blob (`batchMessage.ts`, `stagedBatch.ts`), and what a waiting message says about the
 * backlog (`backlog.ts`).
 *
 * Description only: other folders import src/logs's entry, its files import these files.
 */
export {};
