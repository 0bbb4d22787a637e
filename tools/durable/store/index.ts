/**
 * The task hub's storage for the local durable runtime: table, queue and key names (`keys.ts`),
 * instance and episode records and queue messages (`records.ts`), text spread over several
 * properties (`largeText.ts`), queue texts and storage's error answers (`storageWire.ts`), and
 * every storage call (`store.ts`). The runtime's files import these modules directly.
 */
export {};
