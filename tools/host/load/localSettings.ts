/**
 * `local.settings.json`, read the way Core Tools reads it: `Values` become environment
 * variables unless the environment already defines them, `Host.LocalHttpPort` is the default
 * port. An encrypted file is refused (only Core Tools can decrypt it).
 */
import fs from 'node:fs';

/** local.settings.json: the app settings and host options of a local run. */
export interface LocalSettings {
  values: Record<string, string>;
  localHttpPort?: number;
}

/** The file exists but cannot be used. */
export class LocalSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalSettingsError';
  }
}

/**
 * Parses local.settings.json content.
 *
 * @throws {LocalSettingsError} for malformed content or an encrypted file.
 */
export function parseLocalSettings(text: string, file = 'local.settings.json'): LocalSettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new LocalSettingsError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new LocalSettingsError(`${file} must contain a JSON object.`);
  }
  const root = parsed as Record<string, unknown>;
  if (root.IsEncrypted === true) {
    throw new LocalSettingsError(
      `${file} is encrypted; decrypt it with "func settings decrypt" or write the values in plain text.`,
    );
  }
  const values: Record<string, string> = {};
  const rawValues = root.Values ?? {};
  if (typeof rawValues !== 'object' || rawValues === null || Array.isArray(rawValues)) {
    throw new LocalSettingsError(`${file} "Values" must be an object of strings.`);
  }
  for (const [name, value] of Object.entries(rawValues)) {
    if (typeof value === 'string') values[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') values[name] = String(value);
    else if (value !== null)
      throw new LocalSettingsError(`${file} Values.${name} must be a string.`);
  }
  const host = root.Host;
  let localHttpPort: number | undefined;
  if (typeof host === 'object' && host !== null && 'LocalHttpPort' in host) {
    const port = (host as Record<string, unknown>).LocalHttpPort;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
      throw new LocalSettingsError(`${file} Host.LocalHttpPort must be a port number.`);
    }
    localHttpPort = port;
  }
  return { values, localHttpPort };
}

/**
 * Reads local.settings.json if present.
 *
 * @returns undefined when there is no such file.
 * @throws {LocalSettingsError} when it exists but cannot be used.
 */
export function readLocalSettings(file: string): LocalSettings | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseLocalSettings(text, file);
}

/**
 * Copies settings into `env` where it has no value yet.
 *
 * @returns the names skipped because the environment already defines them.
 */
export function applyLocalSettings(
  values: Record<string, string>,
  env: Record<string, string | undefined>,
): string[] {
  const skipped: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (env[name] !== undefined) skipped.push(name);
    else env[name] = value;
  }
  return skipped;
}
