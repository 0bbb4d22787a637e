/**
 * Beyond one account: which storage account holds each key, and moving a department online.
 *
 * - `placement.ts` is the one module that decides where a key lives (stored department
 *   placements, rendezvous hashing for everything else); `placementStore.ts` keeps the records.
 * - `accountLayer.ts`: what the composition root opens once (accounts, placement, fences, routed
 *   clients). `partitionFence.ts`, `fenceEpoch.ts`: the fence every write to a department's
 *   partition carries, so a relocation can close a partition without losing a write.
 * - `routing/`: serving each call from the account that holds its data (per-account instances,
 *   tables and photo containers routed by placement, indexes and SAS spread over accounts).
 * - `relocation/`: the bounded, idempotent steps of relocating a department.
 *
 * With one account (no `DATA_ACCOUNTS`) there is no layer and every answer is the home account,
 * without a storage read. Why and how: docs/accounts.md.
 */
export {};
