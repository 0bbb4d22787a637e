/**
 * The two data accounts of the accounts tests (support/accounts.ts), each behind a targets front
 * of its own (tools/targets, docs/targets.md): open until a test sets its targets, so a test can
 * seed at full speed and then hold one account to Azure's targets scaled down.
 */
import { startFaultProxy, type FaultProxy } from '../../tools/faultProxy/faultProxy';
import {
  azuriteConnectionString,
  dataEmulatorAccount,
  type AzuritePorts,
} from '../../tools/azurite';
import { dataConnectionStrings } from './accounts';

/** A data account behind its front: its name (`DATA1`), connection through the front, the front. */
export interface FrontedAccount {
  name: string;
  connection: string;
  front: FaultProxy;
}

/** The emulator's ports in a connection string's endpoints. */
function portsOf(connection: string): AzuritePorts {
  const port = (service: string): number => {
    const match = new RegExp(`${service}Endpoint=https?://[^:/]+:(\\d+)/`).exec(connection);
    if (!match) throw new Error(`No ${service} endpoint in the data account's connection string.`);
    return Number(match[1]);
  };
  return { blob: port('Blob'), queue: port('Queue'), table: port('Table') };
}

/** Starts a front (open) before each of the two data accounts. */
export async function frontDataAccounts(): Promise<[FrontedAccount, FrontedAccount]> {
  const fronted = await Promise.all(
    dataConnectionStrings().map(async (connection, i) => {
      const front = await startFaultProxy({ target: portsOf(connection) });
      const account = dataEmulatorAccount(i + 1);
      return {
        name: `DATA${i + 1}`,
        connection: azuriteConnectionString(front.ports, '127.0.0.1', 'http', account),
        front,
      };
    }),
  );
  return [fronted[0]!, fronted[1]!];
}

/** The settings that reach the data accounts through their fronts (with spreadSettings). */
export function frontedSettings(accounts: readonly FrontedAccount[]): Record<string, string> {
  return Object.fromEntries(accounts.map((a) => [a.name, a.connection]));
}
