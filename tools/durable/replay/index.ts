/**
 * The pure replay engine of the local durable runtime: history events in the extension's JSON
 * shape, the ledger of a stored history, the orchestrator trigger's protocol, the actions an
 * orchestrator returns, one episode decided from them, and the retry timing of `...WithRetry`
 * calls. No storage and no clock of its own: the runtime's files import these modules directly.
 */
export {};
