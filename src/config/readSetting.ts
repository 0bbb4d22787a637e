/**
 * Reading one setting from the environment: the trimmed value, parsed and checked, or a
 * {@link ConfigError} naming the setting. src/config/index.ts assembles the configuration from
 * these (and is the only module that hands them `process.env`).
 */

import { malformedSetting, unresolvedKeyVaultReference } from './settingErrors';

export { ConfigError, type SettingProblem } from './settingErrors';

/** How the app reaches its storage account. */
export type StorageConnection =
  | { kind: 'connectionString'; connectionString: string }
  | {
      kind: 'identity';
      accountName?: string;
      tableServiceUri: string;
      queueServiceUri: string;
      blobServiceUri: string;
      /** User-assigned managed identity client id (`AzureWebJobsStorage__clientId`). */
      clientId?: string;
    };

/**
 * `stored`: table SAS carry the table's current stored access policy id; `none`: self-contained.
 */
export type SasTablePolicyMode = 'stored' | 'none';

/** Where organisation-wide last-name index entries live (index entities options 1 and 3). */
export type LastNameIndexMode = 'entity' | 'blob';

/** The environment settings are read from (`process.env` in the app). */
export type Env = Record<string, string | undefined>;

/**
 * What App Service leaves in a setting whose Key Vault reference it could not resolve (no access,
 * no such secret): the reference text itself, `@Microsoft.KeyVault(SecretUri=...)`.
 */
export function isKeyVaultReference(value: string | undefined): boolean {
  return value !== undefined && /^\s*@Microsoft\.KeyVault\(/i.test(value);
}

/**
 * The trimmed value, undefined when absent or blank. @throws {ConfigError} for a Key Vault
 * reference.
 */
function settingValue(env: Env, name: string): string | undefined {
  const value = env[name];
  if (isKeyVaultReference(value)) {
    throw unresolvedKeyVaultReference(name);
  }
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The setting, or `fallback` when absent or blank. @throws {ConfigError} when it is malformed. */
function readString(env: Env, name: string, fallback: string): string {
  return settingValue(env, name) ?? fallback;
}

/** The setting, undefined when absent or blank. @throws {ConfigError} when it is malformed. */
export function readOptional(env: Env, name: string): string | undefined {
  return settingValue(env, name);
}

/**
 * A whole number within `[min, max]`, or `fallback` when absent. @throws {ConfigError} when it is
 * malformed.
 */
export function readInt(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) {
    throw malformedSetting(name, 'a whole number', `"${raw}"`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw malformedSetting(name, `between ${min} and ${max}`, String(value));
  }
  return value;
}

/**
 * The longest SAS lifetime, in minutes, `SAS_MAX_MINUTES` may set: 7 days less 6 minutes. Blob
 * SAS signed with the app's identity use a user delegation key, which Azure issues for at most 7
 * days from its own clock's now; the key must outlive the longest token by the signer's minute of
 * slack, and is asked 5 minutes short of the 7 days for a storage clock behind this one
 * (src/storage/blobSas.ts `MAX_DELEGATION_KEY_MS`).
 */
export const MAX_SAS_MINUTES = 7 * 24 * 60 - 5 - 1;

/**
 * `SAS_MAX_MINUTES`: a whole number of minutes from 1 to {@link MAX_SAS_MINUTES}.
 *
 * @throws {ConfigError} when it is not, naming the 7-day limit of user delegation keys.
 */
export function readSasMaxMinutes(env: Env, name: string, fallback: number): number {
  const minutes = readInt(env, name, fallback, 1, Number.MAX_SAFE_INTEGER);
  if (minutes > MAX_SAS_MINUTES) {
    throw malformedSetting(
      name,
      `at most ${MAX_SAS_MINUTES} minutes (7 days less 6: a user delegation key, which signs blob ` +
        "SAS with the app's identity, lives at most 7 days and must outlast the longest token)",
      String(minutes),
    );
  }
  return minutes;
}

/**
 * A table name (3-63 letters or digits, starting with a letter). @throws {ConfigError} when it is
 * malformed.
 */
export function readTableName(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (!/^[A-Za-z][A-Za-z0-9]{2,62}$/.test(value)) {
    throw malformedSetting(
      name,
      'a table name (3-63 letters or digits, starting with a letter)',
      `"${value}"`,
    );
  }
  return value;
}

/**
 * Queue and container names: 3-63 lowercase letters, digits and single hyphens. Queues are
 * capped at 56 so that `<name>-poison`, which the Functions host creates, stays within 63.
 */
export function readQueueOrContainerName(
  env: Env,
  name: string,
  fallback: string,
  maxLength = 63,
): string {
  const value = readString(env, name, fallback);
  if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(value) || value.length > maxLength) {
    throw malformedSetting(
      name,
      `a queue/container name (3-${maxLength} lowercase letters, digits, single hyphens)`,
      `"${value}"`,
    );
  }
  return value;
}

/** Longest queue name whose `-poison` companion is still a valid queue name. */
export const MAX_QUEUE_NAME = 63 - '-poison'.length;

/** A six-field NCRONTAB expression (`{second} {minute} {hour} {day} {month} {day-of-week}`). */
export function readNcrontab(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (value.split(/\s+/).length !== 6) {
    throw malformedSetting(
      name,
      'a six-field NCRONTAB schedule such as "0 0 1 * * *"',
      `"${value}"`,
    );
  }
  return value;
}

/** `entity` or `blob`. @throws {ConfigError} when it is malformed. */
export function readLastNameIndexMode(env: Env, name: string, fallback: LastNameIndexMode) {
  const value = readString(env, name, fallback);
  if (value !== 'entity' && value !== 'blob') {
    throw malformedSetting(name, '"entity" or "blob"', `"${value}"`);
  }
  return value;
}

/** `stored` or `none`. @throws {ConfigError} when it is malformed. */
export function readSasTablePolicy(env: Env, name: string, fallback: SasTablePolicyMode) {
  const value = readString(env, name, fallback);
  if (value !== 'stored' && value !== 'none') {
    throw malformedSetting(name, '"stored" or "none"', `"${value}"`);
  }
  return value;
}

/**
 * A table-name prefix (3-55 letters or digits, starting with a letter). @throws {ConfigError} when
 * it is malformed.
 */
export function readTablePrefix(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (!/^[A-Za-z][A-Za-z0-9]{2,54}$/.test(value)) {
    throw malformedSetting(name, '3-55 letters or digits starting with a letter', `"${value}"`);
  }
  return value;
}
