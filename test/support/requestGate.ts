/**
 * A deterministic pause before a write reaches storage, whatever its form (a single-entity
 * request or one part of an entity group transaction): the first matching request is held on the
 * client's pipeline until the test releases it, while the test commits a competing write. Later
 * requests pass untouched. (batchGate.ts holds only `$batch` requests.)
 */
import type { TableClient } from '@azure/data-tables';
import type { PipelineRequest } from '@azure/core-rest-pipeline';

export interface RequestGate {
  /** Resolves once the matching request is being held. */
  reached: Promise<void>;
  /** Lets the held request go on to storage. */
  release(): void;
}

/** Holds the first request that `matches` until {@link RequestGate.release}. */
export function holdFirstRequest(
  table: TableClient,
  matches: (request: PipelineRequest) => boolean,
): RequestGate {
  let reached!: () => void;
  let released!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const releasedPromise = new Promise<void>((resolve) => (released = resolve));
  let held = false;
  table.pipeline.addPolicy({
    name: `requestGate-${Math.random().toString(36).slice(2)}`,
    async sendRequest(request, next) {
      if (!held && matches(request)) {
        held = true;
        reached();
        await releasedPromise;
      }
      return next(request);
    },
  });
  return { reached: reachedPromise, release: () => released() };
}

/**
 * Matches a write (not a read) of the entity with this RowKey (plain ASCII), sent on its own or
 * inside a transaction.
 */
export function writesRow(rowKey: string): (request: PipelineRequest) => boolean {
  return (request) => {
    if (request.method === 'GET') return false;
    const body = typeof request.body === 'string' ? request.body : '';
    const inUrl = decodeURIComponent(request.url).includes(`RowKey='${rowKey}')`);
    const inBody = body.includes(`RowKey='${rowKey}')`) || body.includes(`"RowKey":"${rowKey}"`);
    return inUrl || inBody;
  };
}

/** Matches a write whose request body contains `text` (e.g. a unique property value). */
export function writesBodyWith(text: string): (request: PipelineRequest) => boolean {
  return (request) =>
    request.method !== 'GET' && typeof request.body === 'string' && request.body.includes(text);
}
