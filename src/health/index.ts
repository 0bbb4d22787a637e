/**
 * Health: whether the three storage services the app depends on (tables, queues, blobs) answer.
 *
 * Description only: other folders import health.ts (docs/architecture.md "Entries").
 */
export {};
