/**
 * A deterministic pause between a writer's read and its entity group transaction: the first
 * `$batch` request that matches is held on the client's pipeline, after everything the writer read
 * and decided, just before it reaches storage, until the test releases it. Meanwhile the test
 * commits the competing write. Later requests pass untouched.
 */
import type { TableClient } from '@azure/data-tables';

export interface BatchGate {
  /** Resolves once the matching transaction is being held. */
  reached: Promise<void>;
  /** Lets the held transaction go on to storage. */
  release(): void;
}

/** Holds the first transaction whose body matches `matches` until {@link BatchGate.release}. */
export function holdFirstBatch(table: TableClient, matches: (body: string) => boolean): BatchGate {
  let reached!: () => void;
  let released!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const releasedPromise = new Promise<void>((resolve) => (released = resolve));
  let held = false;
  table.pipeline.addPolicy({
    name: `batchGate-${Math.random().toString(36).slice(2)}`,
    async sendRequest(request, next) {
      const body = typeof request.body === 'string' ? request.body : '';
      if (!held && /\/\$batch(\?|$)/.test(request.url) && matches(body)) {
        held = true;
        reached();
        await releasedPromise;
      }
      return next(request);
    },
  });
  return { reached: reachedPromise, release: () => released() };
}

/** Matches a transaction that deletes the entity with these keys (plain ASCII keys). */
export function deletesEntity(partitionKey: string, rowKey: string): (body: string) => boolean {
  const target = `(PartitionKey='${partitionKey}',RowKey='${rowKey}') HTTP/1.1`;
  return (body) =>
    body.split('\r\n').some((line) => line.startsWith('DELETE ') && line.endsWith(target));
}
