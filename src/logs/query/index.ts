/**
 * Paged time-range queries (`query.ts`): cursor and token (`queryCursor.ts`), which blocks next
 * (`querySlice.ts`, pure), the reads (`queryReads.ts`).
 *
 * Description only: other folders import src/logs's entry, its files import these files.
 */
export {};
