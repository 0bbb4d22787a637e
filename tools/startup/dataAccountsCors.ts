/**
 * The console's CORS rule on the data accounts (`DATA_ACCOUNTS`, docs/accounts.md) that are
 * emulators on this machine: a department's photos, expenses and log lines are read by the
 * browser from the account that holds them, and an emulator without the rule refuses the
 * preflight. Accounts elsewhere get theirs from the infrastructure (infra/app/storage.bicep).
 */
import { parseConnectionString } from '../host/connectionString';
import { isLoopbackHostname } from '../host/http/requestGuard';
import { describeError } from '../host/log';
import { allowConsoleOrigins, localOrigins } from '../storageCors';

/** The data accounts whose setting is a connection string to an emulator on this machine. */
export function emulatedDataAccounts(
  env: NodeJS.ProcessEnv,
): { name: string; connection: string }[] {
  const names = (env.DATA_ACCOUNTS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.flatMap((name) => {
    const connection = env[name];
    const blob = connection ? parseConnectionString(connection).get('blobendpoint') : undefined;
    if (!connection || !blob || !URL.canParse(blob)) return [];
    return isLoopbackHostname(new URL(blob).hostname) ? [{ name, connection }] : [];
  });
}

/**
 * Sets the console's CORS rule for the API on `apiPort` on every emulated data account.
 *
 * @returns the banner's lines: the accounts set, and each that could not be (the run goes on:
 *   only the console's reads of that account fail).
 */
export async function allowConsoleOnDataEmulators(
  env: NodeJS.ProcessEnv,
  apiPort: number,
): Promise<string[]> {
  const set: string[] = [];
  const lines: string[] = [];
  for (const { name, connection } of emulatedDataAccounts(env)) {
    try {
      await allowConsoleOrigins(connection, localOrigins(apiPort));
      set.push(name);
    } catch (error) {
      lines.push(
        `  CORS:    not set on ${name} (${describeError(error)}): the console cannot read its departments' photos, expenses or log lines`,
      );
    }
  }
  if (set.length > 0) lines.unshift(`  CORS:    the same on the data accounts ${set.join(', ')}`);
  return lines;
}
