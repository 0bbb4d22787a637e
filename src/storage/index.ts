/**
 * The bottom layer: storage clients (clients.ts), create-once of tables, queues and containers,
 * the SDK's errors turned into domain errors (storageFaults.ts) and the layer's own catalogue
 * (storageErrors.ts), the one retry routine (optimisticRetry.ts), bounded parallelism, queue
 * messages and their group commit, blob SAS signing. Table helpers: `tables/`; names: `keys/`.
 *
 * Imports nothing of the domain but `domainErrors.ts` and `config/`. A library folder: import the
 * module you need; nothing imports this entry (docs/architecture.md).
 */
export {};
