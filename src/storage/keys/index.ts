/**
 * Every PartitionKey, RowKey, table, queue and blob name as pure encode/decode pairs, one module
 * per family: `tables/` (one per table), `blobs/`, `queues.ts`; the codecs they share live here
 * (`text.ts`, `identifiers.ts`, `time.ts`, `continuation.ts`) with the catalogue `keyErrors.ts`.
 * Nothing else in the code base concatenates keys.
 *
 * Key rules (Azure Table service): PartitionKey and RowKey are at most 1 KiB and may not contain
 * `/`, `\`, `#`, `?` or control characters (U+0000–U+001F, U+007F–U+009F); free text (emails,
 * last names) is made key-safe by a reversible escape (`text.ts`). Parsers of stored keys return
 * `undefined` for a key of another type, so readers skip entity types they do not know.
 *
 * Import the family module; nothing imports this entry (docs/architecture.md).
 */
export {};
