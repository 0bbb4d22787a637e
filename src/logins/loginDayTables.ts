/**
 * The per-day login tables (high-volume delete pattern): every attempt of one UTC day goes to the
 * table `<prefix>YYYYMMDD`, so a day's attempts are deleted by one delete-table request instead of
 * a scan plus one delete per entity.
 *
 * Tables are created on first write and the fact is cached per process; creation is race-safe
 * (409 `TableAlreadyExists` counts as success) and a write that finds its table missing (dropped,
 * or never created) creates it and retries once.
 */
import { odata, type TableClient, type TableServiceClient } from '@azure/data-tables';
import { withStorageErrors } from '../storage/storageFaults';
import { loginTableName, parseLoginTableName } from '../storage/keys/tables/logins';
import { prefixRange } from '../storage/keys/text';

/** What the day tables need from the storage clients. */
export interface LoginTableClients {
  table(tableName: string): TableClient;
  tableService(): TableServiceClient;
}

/** A day table that exists in the account. */
export interface LoginDayTable {
  name: string;
  /** Midnight UTC of the table's day. */
  day: Date;
}

/** Outcome of dropping one table. */
export type DropOutcome = 'dropped' | 'alreadyGone';

/** Names, creates, lists and drops the `<prefix>YYYYMMDD` tables. */
export class LoginDayTables {
  private readonly created = new Map<string, Promise<void>>();

  constructor(
    private readonly clients: LoginTableClients,
    /** Table name prefix (`LoginAttempts` by default; config `LOGIN_TABLE_PREFIX`). */
    readonly prefix: string,
  ) {}

  /** Name of the table of the UTC day `at` falls in. */
  nameOf(at: Date): string {
    return loginTableName(this.prefix, at);
  }

  /** Client of the table of the UTC day `at` falls in (the table may not exist). */
  clientOf(at: Date): TableClient {
    return this.clients.table(this.nameOf(at));
  }

  /**
   * Makes sure the table of `at`'s day exists, asking storage at most once per process per table
   * unless {@link forget} is called.
   *
   * @throws {DomainError} when storage refuses (e.g. 409 `TableBeingDeleted` right after a drop).
   */
  ensure(at: Date): Promise<void> {
    const name = this.nameOf(at);
    let pending = this.created.get(name);
    if (!pending) {
      pending = withStorageErrors(() => this.clients.tableService().createTable(name)).catch(
        (error: unknown) => {
          this.created.delete(name);
          throw error;
        },
      );
      this.created.set(name, pending);
    }
    return pending;
  }

  /** Forgets that a table was created (it was dropped, or a write found it missing). */
  forget(name: string): void {
    this.created.delete(name);
  }

  /**
   * Every day table in the account, oldest first. Lists only names in the prefix's range
   * (`TableName ge prefix and TableName lt prefix⁺`) and keeps only exact `<prefix>YYYYMMDD` names
   * of real dates, so `<prefix>Archive`, a lower-case variant or `<prefix>20260230` are never
   * mistaken for day tables.
   *
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async list(): Promise<LoginDayTable[]> {
    const { ge, lt } = prefixRange(this.prefix);
    const tables: LoginDayTable[] = [];
    await withStorageErrors(async () => {
      const listing = this.clients
        .tableService()
        .listTables({ queryOptions: { filter: odata`TableName ge ${ge} and TableName lt ${lt}` } });
      for await (const table of listing) {
        const day =
          table.name === undefined ? undefined : parseLoginTableName(this.prefix, table.name);
        if (day && table.name) tables.push({ name: table.name, day });
      }
    });
    return tables.sort((a, b) => a.day.getTime() - b.day.getTime());
  }

  /**
   * Drops one whole table in a single request. A 404 means another run (or a retry of this
   * request whose response was lost) dropped it already.
   *
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async drop(name: string): Promise<DropOutcome> {
    let status: number | undefined;
    await withStorageErrors(() =>
      this.clients.tableService().deleteTable(name, {
        // The SDK swallows 404 on delete; the raw status tells "dropped" from "already gone".
        onResponse: (response) => {
          status = response.status;
        },
      }),
    );
    this.forget(name);
    return status === 404 ? 'alreadyGone' : 'dropped';
  }
}
