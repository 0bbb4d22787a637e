/**
 * The configuration's errors, phrased once: a {@link ConfigError} names the setting that cannot
 * be used and says why; code that reads an unusable setting gets a {@link SettingUnavailableError}.
 */
import { SettingUnavailableError } from '../domainErrors';

/** What is wrong with a setting. */
export type SettingProblem = 'missing' | 'malformed' | 'keyVaultReference';

/** A setting is missing, malformed or an unresolved Key Vault reference. The message names it. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
    readonly problem: SettingProblem = 'malformed',
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** A setting holding a Key Vault reference App Service did not resolve. */
export function unresolvedKeyVaultReference(name: string): ConfigError {
  return new ConfigError(
    name,
    `Setting ${name} holds a Key Vault reference the platform did not resolve; it is treated as missing. ` +
      'Check that the identity in keyVaultReferenceIdentity may read the secret (Key Vault Secrets User) and that the secret exists.',
    'keyVaultReference',
  );
}

/** A setting whose value does not have the shape it must have (`shape`, e.g. `a whole number`). */
export function malformedSetting(name: string, shape: string, got: string): ConfigError {
  return new ConfigError(name, `Setting ${name} must be ${shape}, got ${got}.`);
}

/** No way to reach the storage account was configured. */
export function storageConnectionMissing(): ConfigError {
  return new ConfigError(
    'AzureWebJobsStorage',
    'Setting AzureWebJobsStorage is missing: set a connection string, or AzureWebJobsStorage__accountName ' +
      '(or AzureWebJobsStorage__tableServiceUri, __queueServiceUri and __blobServiceUri) for managed identity.',
    'missing',
  );
}

/** A data account named in `DATA_ACCOUNTS` has no connection configured. */
export function dataConnectionMissing(name: string): ConfigError {
  return new ConfigError(
    name,
    `Setting ${name} is missing: set a connection string, or ${name}__accountName ` +
      `(or ${name}__tableServiceUri and ${name}__blobServiceUri) for managed identity.`,
    'missing',
  );
}

/** 503: code read a setting this instance could not read (only that feature is off). */
export function settingUnavailable(error: ConfigError): SettingUnavailableError {
  return new SettingUnavailableError(error.setting, error.problem, error.message);
}
