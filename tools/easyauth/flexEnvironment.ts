/**
 * The environment a Flex Consumption instance gives the app, as far as the app reads it
 * (src/config/index.ts `readPlatformAuth`): the platform markers by which the Functions host knows
 * it is hosted — Flex Consumption sets `WEBSITE_SKU=FlexConsumption`, `CONTAINER_NAME`,
 * `WEBSITE_POD_NAME` and `LEGION_SERVICE_HOST`, but no `WEBSITE_INSTANCE_ID` — and
 * `WEBSITE_AUTH_ENABLED=True` because App Service authentication is on. The values are
 * placeholders: only their presence counts.
 */

/** Settings that must be absent on a Flex Consumption instance (the platform never sets them). */
export const FLEX_CONSUMPTION_ABSENT = [
  'WEBSITE_INSTANCE_ID',
  'CONTAINER_APP_NAME',
  // A local opt-in; Azure ignores it anyway, and the deployment never sets it.
  'TRUST_LOCAL_PRINCIPAL_HEADER',
] as const;

/**
 * The Flex Consumption settings of an instance reached at `publicHost` (`host:port` of the front,
 * which is what `WEBSITE_HOSTNAME` names in Azure).
 */
export function flexConsumptionEnvironment(publicHost: string): Record<string, string> {
  return {
    WEBSITE_SKU: 'FlexConsumption',
    CONTAINER_NAME: 'local-flex-container',
    WEBSITE_POD_NAME: 'local-flex-pod',
    LEGION_SERVICE_HOST: 'local-legion',
    WEBSITE_AUTH_ENABLED: 'True',
    WEBSITE_HOSTNAME: publicHost,
  };
}

/**
 * Makes `env` a Flex Consumption instance's: {@link flexConsumptionEnvironment} set,
 * {@link FLEX_CONSUMPTION_ABSENT} removed (for the launcher, whose host runs in its own process).
 */
export function applyFlexConsumptionEnvironment(env: NodeJS.ProcessEnv, publicHost: string): void {
  for (const name of FLEX_CONSUMPTION_ABSENT) delete env[name];
  Object.assign(env, flexConsumptionEnvironment(publicHost));
}
