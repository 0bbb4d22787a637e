/**
 * Relocating a department to another account online, as bounded and idempotent steps for the
 * Durable orchestration (src/orchestrations/relocation/): start, copy, freeze, sync, switch,
 * delete (`relocationSteps.ts`), with the copy (`relocationCopy.ts`), the row and blob reads and
 * writes (`relocationRows.ts`), the last sync (`relocationSync.ts`) and the source's deletion
 * (`relocationDelete.ts`).
 * docs/accounts.md "Relocating a department".
 */
export {};
