/**
 * The App Service authentication settings the Azure-mode front imitates, read from the file the
 * deployment itself uses (`infra/app/auth-settings.json`, loaded by the bicep with
 * `loadJsonContent`): the front behaves as the platform does with *those very settings*.
 *
 * Only the parts of `authsettingsV2` the front acts on are read; anything else in the file is kept
 * out of the type (zod strips it) because the front does not imitate it (docs/azure-mode.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Where the deployment's authentication settings live, from the project root. */
export const AUTH_SETTINGS_FILE = 'infra/app/auth-settings.json';

/** What App Service does with a request that has no (valid) identity and is not excluded. */
export const UNAUTHENTICATED_ACTIONS = [
  'Return401',
  'Return403',
  'RedirectToLoginPage',
  'AllowAnonymous',
] as const;
/** What the front does with an unauthenticated request. */
export type UnauthenticatedAction = (typeof UNAUTHENTICATED_ACTIONS)[number];

const excludedPath = z
  .string()
  .regex(/^\/[^?#\s]*$/, 'an excluded path starts with "/" and has no query, fragment or space');

const schema = z.object({
  platform: z.object({ enabled: z.boolean() }),
  globalValidation: z
    .object({
      requireAuthentication: z.boolean().default(false),
      unauthenticatedClientAction: z.enum(UNAUTHENTICATED_ACTIONS).default('RedirectToLoginPage'),
      excludedPaths: z.array(excludedPath).default([]),
    })
    .default({
      requireAuthentication: false,
      unauthenticatedClientAction: 'RedirectToLoginPage',
      excludedPaths: [],
    }),
  login: z
    .object({
      tokenStore: z.object({ enabled: z.boolean().default(false) }).default({ enabled: false }),
    })
    .default({ tokenStore: { enabled: false } }),
});

/** The authentication settings the front acts on (App Service's defaults for what is omitted). */
export type AuthSettings = z.infer<typeof schema>;

/** A partial override of {@link AuthSettings}, merged section by section (tests). */
export interface AuthSettingsOverride {
  platform?: Partial<AuthSettings['platform']>;
  globalValidation?: Partial<AuthSettings['globalValidation']>;
  login?: { tokenStore?: Partial<AuthSettings['login']['tokenStore']> };
}

/** Malformed authentication settings: the file, or an override, does not fit the schema. */
export class AuthSettingsError extends Error {
  override name = 'AuthSettingsError';
}

/**
 * Validates settings given as JSON (the file's content, or an object).
 *
 * @throws {AuthSettingsError} naming the first setting that does not fit.
 */
export function parseAuthSettings(
  value: unknown,
  source = 'authentication settings',
): AuthSettings {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AuthSettingsError(`${source}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Reads and validates `infra/app/auth-settings.json` below `projectRoot`.
 *
 * @throws {AuthSettingsError} when the file is not JSON or does not fit the schema.
 * @throws {Error} (ENOENT) when it is missing.
 */
export function readAuthSettings(projectRoot: string): AuthSettings {
  const file = path.join(projectRoot, AUTH_SETTINGS_FILE);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw new AuthSettingsError(`${file}: ${error.message}`);
    throw error;
  }
  return parseAuthSettings(json, file);
}

/**
 * The settings with an override applied section by section (`excludedPaths` is replaced, not
 * appended), validated again.
 *
 * @throws {AuthSettingsError} when the result does not fit the schema.
 */
export function withOverride(
  settings: AuthSettings,
  override: AuthSettingsOverride = {},
): AuthSettings {
  return parseAuthSettings(
    {
      platform: { ...settings.platform, ...override.platform },
      globalValidation: { ...settings.globalValidation, ...override.globalValidation },
      login: { tokenStore: { ...settings.login.tokenStore, ...override.login?.tokenStore } },
    },
    'authentication settings override',
  );
}
