/**
 * The storage accounts the app knows: `home` (`AzureWebJobsStorage`) and the data accounts of
 * `DATA_ACCOUNTS`, each with its clients and placement weight. Which account holds what is
 * placement.ts's decision alone; this is only the list.
 */
import { HOME_ACCOUNT } from '../config';
import type { StorageClients } from '../storage/clients';
import { unknownAccount } from './accountErrors';
import type { Weighted } from './rendezvous';

export { HOME_ACCOUNT };

/** One storage account: its name (`home` or a connection name), weight and clients. */
export interface StorageAccount extends Weighted {
  readonly clients: StorageClients;
}

/** Every configured account, home first, then the data accounts in `DATA_ACCOUNTS` order. */
export class AccountSet {
  readonly all: readonly StorageAccount[];

  constructor(
    readonly home: StorageAccount,
    readonly data: readonly StorageAccount[] = [],
  ) {
    this.all = [home, ...data];
  }

  /** True when data is spread over more than the home account (`DATA_ACCOUNTS` is set). */
  get spread(): boolean {
    return this.data.length > 0;
  }

  /** The names, in order. */
  names(): string[] {
    return this.all.map((account) => account.name);
  }

  /** The account of that name, or `undefined`. */
  byName(name: string): StorageAccount | undefined {
    return this.all.find((account) => account.name === name);
  }

  /**
   * The account of that name.
   *
   * @throws {ValidationError} `UnknownAccount` when no account has that name.
   */
  require(name: string): StorageAccount {
    const account = this.byName(name);
    if (!account) throw unknownAccount(name, this.names());
    return account;
  }
}
