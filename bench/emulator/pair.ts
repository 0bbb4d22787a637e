/**
 * The emulator case's pair (bench/cases/emulator.ts): the project's patched Azurite and the same
 * release as published, each in its own process behind its own counting proxy, so the same calls
 * reach both and each side's requests are its own. Seeding goes past the proxy (not measured).
 */
import { TableClient, type TransactionAction } from '@azure/data-tables';
import { mapBounded } from '../../src/storage/parallel';
import { startAzurite, type RunningAzurite } from '../../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../../tools/faultProxy/faultProxy';
import type { BenchEnv } from '../types';

/** One emulator as the case uses it. */
export interface Emulator {
  name: 'patched' | 'published';
  proxy: FaultProxy;
  /** A table through the counting proxy (measured calls). */
  table(name: string): TableClient;
  /** A table without the proxy (seeding). */
  direct(name: string): TableClient;
}

/** The RowKey of entity `i` of a partition. */
export const rowKey = (i: number): string => `r${String(i).padStart(6, '0')}`;
/** The RowKey the shared-RowKey comparisons' entities share (the last-name index's shard). */
export const SHARED_ROW_KEY = '000';
/** Every seeded entity's payload. */
export const PAYLOAD = 'x'.repeat(200);

async function startEmulator(
  env: BenchEnv,
  name: Emulator['name'],
): Promise<Emulator & { azurite: RunningAzurite }> {
  const azurite = await startAzurite({
    packageName: name === 'patched' ? 'azurite' : 'azurite-unpatched',
  });
  env.defer(() => azurite.stop());
  const proxy = await startFaultProxy({ target: azurite.ports });
  env.defer(() => proxy.stop());
  return {
    name,
    azurite,
    proxy,
    table: (table) =>
      TableClient.fromConnectionString(proxy.connectionString, table, {
        allowInsecureConnection: true,
      }),
    direct: (table) =>
      TableClient.fromConnectionString(azurite.connectionString, table, {
        allowInsecureConnection: true,
      }),
  };
}

/** Inserts `count` entities `rowKey(first..)` into one partition in transactions of 100. */
export async function fillPartition(
  client: TableClient,
  partitionKey: string,
  first: number,
  count: number,
): Promise<void> {
  const chunks: number[] = [];
  for (let i = 0; i < count; i += 100) chunks.push(i);
  await mapBounded(chunks, 4, (start) =>
    client.submitTransaction(
      Array.from({ length: Math.min(100, count - start) }, (_, i): TransactionAction => [
        'create',
        { partitionKey, rowKey: rowKey(first + start + i), Data: PAYLOAD },
      ]),
    ),
  );
}

/** Both emulators, started side by side (stopped with the case). */
export async function bothEmulators(env: BenchEnv): Promise<[Emulator, Emulator]> {
  return Promise.all([startEmulator(env, 'patched'), startEmulator(env, 'published')]);
}
