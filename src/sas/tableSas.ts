/**
 * Signs a read-only table SAS limited to one partition (and optionally a RowKey range in it).
 *
 * `spk`/`epk` (and `srk`/`erk`) are part of the string to sign, so a client cannot widen the
 * range without breaking the signature. Bound to a stored access policy, the token leaves the
 * permission to the policy and keeps its own start and expiry; unbound, it carries all three.
 */
import { AzureNamedKeyCredential, generateTableSas, type SasProtocol } from '@azure/data-tables';
import type { SharedKey } from '../storage/clients';
import type { SasWindow } from './lifetime';

/** What one table SAS grants. */
export interface TableSasScope {
  table: string;
  partitionKey: string;
  /** Inclusive RowKey bounds inside the partition; omitted = the whole partition. */
  rowKeyStart?: string;
  rowKeyEnd?: string;
}

/** How a table SAS is signed. */
export interface TableSasSigning {
  key: SharedKey;
  window: SasWindow;
  /** Stored access policy to bind the token to; omitted = a self-contained token. */
  policyId?: string;
  /** `https` in Azure; `https,http` only for a loopback emulator. */
  protocol: SasProtocol;
}

/** The SAS query string (no leading `?`). */
export function signTableSas(scope: TableSasScope, signing: TableSasSigning): string {
  const credential = new AzureNamedKeyCredential(signing.key.accountName, signing.key.accountKey);
  return generateTableSas(scope.table, credential, {
    startsOn: signing.window.startsOn,
    expiresOn: signing.window.expiresOn,
    ...(signing.policyId ? { identifier: signing.policyId } : { permissions: { query: true } }),
    protocol: signing.protocol,
    startPartitionKey: scope.partitionKey,
    endPartitionKey: scope.partitionKey,
    ...(scope.rowKeyStart !== undefined ? { startRowKey: scope.rowKeyStart } : {}),
    ...(scope.rowKeyEnd !== undefined ? { endRowKey: scope.rowKeyEnd } : {}),
  });
}
