/**
 * One account's table with the relocation fence (partitionFence.ts; docs/glossary.md "fence"):
 * a write to a partition of a department's data goes out as an entity group transaction that
 * carries the fence operations, a single-entity write as a one-operation transaction (still one
 * request). Reads, and writes to any other partition, are the SDK client's own calls.
 */
import type {
  GetTableEntityOptions,
  ListTableEntitiesOptions,
  TableClient,
  TableEntity,
  TableTransactionResponse,
  TransactionAction,
  UpdateMode,
} from '@azure/data-tables';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../storage/tables/entityGroupTransaction';
import type { TableAccess, WriteAnswer, WriteCondition } from '../storage/tables/tableAccess';

/** What a fenced table asks of its account's fence. */
export interface TableFence {
  /** Whether writes to `partitionKey` of `tableName` are fenced (a department's partition). */
  covers(tableName: string, partitionKey: string): boolean;
  /**
   * Submits `actions` through `raw`: with the fence operations appended in a department's
   * partition, as they came in any other.
   *
   * @throws {ThrottledError} `Relocating` when the department is frozen or moved on.
   */
  submit(raw: TableClient, actions: TransactionAction[]): Promise<TableTransactionResponse>;
}

/** See the file comment. */
export class FencedTable implements TableAccess {
  constructor(
    private readonly fence: TableFence,
    private readonly raw: TableClient,
  ) {}

  get tableName(): string {
    return this.raw.tableName;
  }

  /** The raw client's: a conditioned transaction is sent through it. */
  get pipeline(): TableClient['pipeline'] {
    return this.raw.pipeline;
  }

  getEntity<T extends object = Record<string, unknown>>(
    partitionKey: string,
    rowKey: string,
    options?: GetTableEntityOptions,
  ) {
    return this.raw.getEntity<T>(partitionKey, rowKey, options);
  }

  listEntities<T extends object = Record<string, unknown>>(options?: ListTableEntitiesOptions) {
    return this.raw.listEntities<T>(options);
  }

  createEntity<T extends object>(entity: TableEntity<T>): Promise<WriteAnswer> {
    return this.single(['create', entity], () => this.raw.createEntity(entity));
  }

  upsertEntity<T extends object>(
    entity: TableEntity<T>,
    mode: UpdateMode = 'Merge',
  ): Promise<WriteAnswer> {
    return this.single(['upsert', entity, mode], () => this.raw.upsertEntity(entity, mode));
  }

  updateEntity<T extends object>(
    entity: TableEntity<T>,
    mode: UpdateMode = 'Merge',
    condition: WriteCondition = {},
  ): Promise<WriteAnswer> {
    return this.single(['update', entity, mode, { etag: condition.etag }], () =>
      this.raw.updateEntity(entity, mode, condition),
    );
  }

  deleteEntity(
    partitionKey: string,
    rowKey: string,
    condition: WriteCondition = {},
  ): Promise<WriteAnswer> {
    return this.single(['delete', { partitionKey, rowKey }, { etag: condition.etag }], async () => {
      await this.raw.deleteEntity(partitionKey, rowKey, condition);
      return {};
    });
  }

  /** With the fence operations when its partition is a department's (see {@link TableFence}). */
  submitTransaction(actions: TransactionAction[]): Promise<TableTransactionResponse> {
    return this.fence.submit(this.raw, actions);
  }

  createTable(): Promise<void> {
    return this.raw.createTable();
  }

  deleteTable(): Promise<void> {
    return this.raw.deleteTable();
  }

  /** A single write: a fenced one-operation transaction in a department's partition. */
  private async single(
    action: EntityGroupAction,
    unfenced: () => Promise<WriteAnswer>,
  ): Promise<WriteAnswer> {
    if (!this.fence.covers(this.tableName, action[1].partitionKey)) return unfenced();
    const response = await submitEntityGroupTransaction(this, [action]);
    return { etag: response.subResponses[0]?.etag };
  }
}
