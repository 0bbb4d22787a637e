/**
 * Where the app runs, as the Functions host itself tells: the platform markers and App Service
 * authentication. Pure: `src/config/index.ts` passes the environment in.
 */
import { readOptional, type Env } from './readSetting';

/**
 * The environment variables by which the Functions host itself recognises a hosted instance
 * (azure-functions-host `EnvironmentExtensions`: App Service and Premium set `WEBSITE_INSTANCE_ID`;
 * Flex Consumption sets `WEBSITE_SKU=FlexConsumption`, `CONTAINER_NAME`, `WEBSITE_POD_NAME` and
 * `LEGION_SERVICE_HOST` but no `WEBSITE_INSTANCE_ID`; Container Apps sets `CONTAINER_APP_NAME`).
 * Any one of them, non-empty, means "in Azure": the check fails closed.
 */
export const AZURE_PLATFORM_MARKERS = [
  'WEBSITE_INSTANCE_ID',
  'WEBSITE_SKU',
  'CONTAINER_NAME',
  'WEBSITE_POD_NAME',
  'LEGION_SERVICE_HOST',
  'CONTAINER_APP_NAME',
] as const;

/** Where the app runs and whether App Service authentication fronts it. */
export interface PlatformAuth {
  /** True on a hosted instance: any of {@link AZURE_PLATFORM_MARKERS} is set. */
  inAzure: boolean;
  /** The markers that were set (names only, for the startup log). */
  markers: readonly string[];
  /** True when App Service authentication is on (the platform sets `WEBSITE_AUTH_ENABLED=True`). */
  authEnabled: boolean;
  /**
   * True when hand-sent principal headers may be believed outside Azure
   * (`TRUST_LOCAL_PRINCIPAL_HEADER=true`: `npm start`, `func start` with local.settings.json, the
   * tests). Always false in Azure, whatever the setting says.
   */
  localPrincipalsTrusted: boolean;
}

/**
 * Who vouches for the principal header, from the given settings: the platform's own (set by Azure,
 * never by hand) and the local opt-in. Never throws.
 */
export function platformAuthOf(env: Env): PlatformAuth {
  const markers = AZURE_PLATFORM_MARKERS.filter((name) => readOptional(env, name) !== undefined);
  const inAzure = markers.length > 0;
  return {
    inAzure,
    markers,
    authEnabled: readOptional(env, 'WEBSITE_AUTH_ENABLED')?.toLowerCase() === 'true',
    localPrincipalsTrusted:
      !inAzure && readOptional(env, 'TRUST_LOCAL_PRINCIPAL_HEADER')?.toLowerCase() === 'true',
  };
}
