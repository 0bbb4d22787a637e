/**
 * The table operations the app uses, as one small interface: the SDK's `TableClient` has them, and
 * so do the account layer's tables (src/accounts: a table routed to the account holding each
 * partition, and one account's fenced table), which are named classes implementing it. Code that
 * may be handed one of those is typed by this interface, so a reader of `table.submitTransaction`
 * knows it may not be the SDK's, and go-to-definition lists the implementations.
 *
 * Writes answer only what the app reads of them (the new ETag): a fenced single write is sent
 * as a one-operation transaction, whose answer has no other header to give.
 */
import type { Pipeline } from '@azure/core-rest-pipeline';
import type {
  GetTableEntityOptions,
  GetTableEntityResponse,
  ListTableEntitiesOptions,
  TableEntity,
  TableEntityResult,
  TableEntityResultPage,
  TableTransactionResponse,
  TransactionAction,
  UpdateMode,
} from '@azure/data-tables';

/** What a single-entity write answers. */
export interface WriteAnswer {
  etag?: string;
}

/** The ETag a write or delete is conditional on; none: unconditional (`If-Match: *`). */
export interface WriteCondition {
  etag?: string;
}

/** A paging position, as the SDK's `byPage` takes it. */
export interface PagePosition {
  continuationToken?: string;
  maxPageSize?: number;
}

/** A query's entities, one by one or page by page (the SDK's paged iterator, as used). */
export interface EntityPages<T extends object> extends AsyncIterableIterator<TableEntityResult<T>> {
  byPage(settings?: PagePosition): AsyncIterableIterator<TableEntityResultPage<T>>;
}

/** See the file comment. */
export interface TableAccess {
  readonly tableName: string;
  /**
   * The pipeline of the one client this table sends through. Absent on a table that routes each
   * call to one of several clients: it equips the one it picks (entityGroupTransaction.ts).
   */
  readonly pipeline?: Pipeline;
  getEntity<T extends object = Record<string, unknown>>(
    partitionKey: string,
    rowKey: string,
    options?: GetTableEntityOptions,
  ): Promise<GetTableEntityResponse<TableEntityResult<T>>>;
  listEntities<T extends object = Record<string, unknown>>(
    options?: ListTableEntitiesOptions,
  ): EntityPages<T>;
  createEntity<T extends object>(entity: TableEntity<T>): Promise<WriteAnswer>;
  upsertEntity<T extends object>(entity: TableEntity<T>, mode?: UpdateMode): Promise<WriteAnswer>;
  updateEntity<T extends object>(
    entity: TableEntity<T>,
    mode?: UpdateMode,
    condition?: WriteCondition,
  ): Promise<WriteAnswer>;
  deleteEntity(partitionKey: string, rowKey: string, condition?: WriteCondition): Promise<unknown>;
  submitTransaction(actions: TransactionAction[]): Promise<TableTransactionResponse>;
  /** Creates the table (an existing one is fine). */
  createTable(): Promise<void>;
  deleteTable(): Promise<void>;
}
