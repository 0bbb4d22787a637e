/**
 * Draining one department's index outbox: the rounds (read, snapshot, write, delete:
 * `outboxDrain.ts` and its `outboxDrainWork`/`Snapshot`/`Writes`), rows nobody can drain
 * (`outboxDeadLetter.ts`), the department's lease (`drainLease.ts`, `leasedDrain.ts`), one
 * process's shared drains and their cache (`sharedDrains.ts`, `drainCache.ts`), the writer's own
 * drain (`writerDrain.ts`), the sweep over every department (`outboxSweep.ts`). Why it never loses
 * an update: docs/queues.md "Why a drain never loses an update".
 *
 * Description only: other folders import src/indexing's entry, its files import these files.
 */
export {};
