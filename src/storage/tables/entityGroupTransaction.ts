/**
 * The one way the project submits an entity group transaction, so that a delete (or an update)
 * that names an ETag is conditional on that ETag on the wire.
 *
 * Why: `TableClient.submitTransaction` of `@azure/data-tables` 13.3.2 drops a delete's options, so
 * every delete inside a changeset goes out with `If-Match: *`, while the Table service honours a
 * specific ETag there (a stale one fails the whole transaction with 412 and nothing is applied).
 *
 * How: the SDK still serialises every operation. One policy on the client's own pipeline (public
 * `TableClient.pipeline`, added once per pipeline, in the Serialize phase, so before signing and
 * retries) rewrites the `If-Match` header of the changeset parts the caller conditioned. The
 * conditions of a call travel with that call (`AsyncLocalStorage`), so concurrent transactions
 * on one client never see each other's; requests outside a call pass untouched. The SDK itself is
 * neither forked nor patched.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  TableEntity,
  TableTransactionResponse,
  TransactionAction,
  UpdateMode,
} from '@azure/data-tables';
import type { Pipeline, PipelinePolicy } from '@azure/core-rest-pipeline';
import { batchBodyNotText, conditionsNotApplied } from '../storageErrors';
import { withIfMatch, type EntityCondition, type EntityKeys } from './changesetConditions';
import type { TableAccess } from './tableAccess';

/**
 * Operations the relocation fence adds to a transaction on a department's partition when data is
 * spread over several accounts (src/accounts/partitionFence.ts): the check of the partition's open
 * fence row and, while a relocation copies the department, the change marker.
 */
export const FENCE_OPERATIONS = 2;

/**
 * Most operations the app puts in one entity group transaction: the Table service's limit of 100,
 * less the {@link FENCE_OPERATIONS} the fence may add.
 */
export const MAX_TRANSACTION_OPERATIONS = 100 - FENCE_OPERATIONS;

/** An ETag condition; without `etag` the operation is unconditional (`If-Match: *`). */
export interface EtagCondition {
  etag?: string;
}

/** One operation of an entity group transaction. */
export type EntityGroupAction =
  | ['create', TableEntity]
  | ['upsert', TableEntity, UpdateMode?]
  | ['update', TableEntity, UpdateMode?, EtagCondition?]
  | ['delete', EntityKeys, EtagCondition?];

/** What one call sends, and whether its conditions reached the request. */
interface CallConditions {
  conditions: EntityCondition[];
  applied: boolean;
}

const POLICY_NAME = 'entityGroupConditionsPolicy';
const callConditions = new AsyncLocalStorage<CallConditions>();

/** The `$batch` body as text (the SDK sends a string; bytes are decoded), else `undefined`. */
function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return undefined;
}

/**
 * Sets the `If-Match` headers of the current call's transaction in its `$batch` body. It fails
 * closed: a `$batch` body it cannot read stops the request before it is sent (the check after the
 * call would come too late, once unconditional deletes had committed).
 */
function conditionsPolicy(): PipelinePolicy {
  return {
    name: POLICY_NAME,
    async sendRequest(request, next) {
      const call = callConditions.getStore();
      // Every $batch of the call: the relocation fence re-sends a transaction it had refused.
      if (call && request.method === 'POST' && /\/\$batch(\?|$)/.test(request.url)) {
        const body = bodyText(request.body);
        if (body === undefined) {
          throw batchBodyNotText();
        }
        request.body = withIfMatch(body, call.conditions);
        if (request.headers.has('Content-Length')) {
          request.headers.set('Content-Length', Buffer.byteLength(request.body));
        }
        call.applied = true;
      }
      return next(request);
    },
  };
}

/**
 * Runs `work` outside the conditions of the transaction call it is made from: the relocation fence
 * reads and writes its own rows in the middle of a caller's transaction call, and the caller's
 * conditions must not be placed on those requests.
 */
export function withoutCallConditions<T>(work: () => T): T {
  return callConditions.exit(work);
}

/** The failing operation's index from a transaction error message (`"2:..."`), if it says. */
export function failedOperationIndex(error: unknown): number | undefined {
  const message = (error as { message?: unknown } | null)?.message;
  const match = typeof message === 'string' ? /^(\d+):/.exec(message) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * Equips a pipeline with the conditions policy (idempotent): a table that routes to one of several
 * clients (src/accounts/routing/routedTable.ts) equips the one a transaction is sent through.
 */
export function equipConditions(pipeline: Pipeline): void {
  equip(pipeline);
}

/** Adds the policy unless the pipeline already holds it: the pipeline is its own record. */
function equip(pipeline: Pipeline): void {
  if (!pipeline.getOrderedPolicies().some((policy) => policy.name === POLICY_NAME)) {
    pipeline.addPolicy(conditionsPolicy(), { phase: 'Serialize' });
  }
}

function toSdkAction(action: EntityGroupAction): TransactionAction {
  switch (action[0]) {
    case 'create':
      return ['create', action[1]];
    case 'upsert':
      return ['upsert', action[1], action[2] ?? 'Merge'];
    case 'update':
      return ['update', action[1], action[2] ?? 'Merge', { etag: action[3]?.etag }];
    case 'delete':
      return ['delete', { partitionKey: action[1].partitionKey, rowKey: action[1].rowKey }];
  }
}

function conditionOf(action: EntityGroupAction): EntityCondition | undefined {
  let etag: string | undefined;
  switch (action[0]) {
    case 'update':
      etag = action[3]?.etag;
      break;
    case 'delete':
      etag = action[2]?.etag;
      break;
    default:
      return undefined;
  }
  if (etag === undefined) return undefined;
  return { partitionKey: action[1].partitionKey, rowKey: action[1].rowKey, etag };
}

/**
 * Submits the actions as one entity group transaction (one partition, at most 100 operations):
 * all apply or none. Each delete and update that names an ETag is sent with `If-Match: <etag>`.
 *
 * @returns the SDK's answer, one sub-response per action, in order (an update's new ETag).
 * @throws {RestError} when the service refused the transaction as a whole (nothing applied): 412
 *   when a named ETag no longer matches, 404/409 for a missing or existing entity; the message
 *   starts with the failing operation's index (`"1:..."`). Translate with
 *   `storage/storageFaults.ts`.
 * @throws {Error} when a condition could not be placed on its operation or the body could not be
 *   read (nothing was sent), or when the request left without passing the conditions policy (an
 *   SDK change: a bug).
 */
export async function submitEntityGroupTransaction(
  table: TableAccess,
  actions: readonly EntityGroupAction[],
): Promise<TableTransactionResponse> {
  const conditions = actions
    .map(conditionOf)
    .filter((condition): condition is EntityCondition => condition !== undefined);
  const sdkActions = actions.map(toSdkAction);
  if (conditions.length === 0) return table.submitTransaction(sdkActions);
  // A routed table has no pipeline of its own: it equips the client it sends through.
  if (table.pipeline) equip(table.pipeline);
  const call: CallConditions = { conditions, applied: false };
  const response = await callConditions.run(call, () => table.submitTransaction(sdkActions));
  if (!call.applied) {
    throw conditionsNotApplied();
  }
  return response;
}
