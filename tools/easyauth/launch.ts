/**
 * `npm start -- --azure`: the front and the test issuer in front of the host the launcher started
 * with a Flex Consumption environment (tools/start.ts), and what to print about them.
 */
import { startEasyAuth, type EasyAuth } from './easyAuth';
import { readAuthSettings } from './settings';

/** The test issuer's default port in local runs (the front takes the public port, 7071). */
export const DEFAULT_ISSUER_PORT = 7072;

/** How to run the local host behind the App Service authentication front (Azure mode). */
export interface AzureFrontOptions {
  projectRoot: string;
  /** The public port (the front's). */
  port: number;
  listenAddress?: string;
  issuerPort?: number;
  /** The app host's origin (internal, loopback). */
  upstream: string;
  /** The internal host's secret (it serves only what the front forwards with it). */
  upstreamSecret: string;
}

/** The running pair and the lines that tell the user how to sign in and get a token. */
export interface AzureFront {
  easyAuth: EasyAuth;
  /** `http://localhost:<port>`: what the user calls. */
  publicOrigin: string;
  lines: string[];
}

/**
 * Starts the issuer and the front with infra/app/auth-settings.json.
 *
 * @throws {Error} when the settings are malformed or a port is taken.
 */
export async function startAzureFront(options: AzureFrontOptions): Promise<AzureFront> {
  const settings = readAuthSettings(options.projectRoot);
  const easyAuth = await startEasyAuth({
    settings,
    port: options.port,
    issuerPort: options.issuerPort ?? DEFAULT_ISSUER_PORT,
    upstream: options.upstream,
    upstreamSecret: options.upstreamSecret,
    ...(options.listenAddress ? { listenAddress: options.listenAddress } : {}),
  });
  const { front, issuer } = easyAuth;
  const publicOrigin = front.origin.replace('//127.0.0.1:', '//localhost:');
  const sample = await issuer.mintAccessToken({
    oid: '00000000-0000-4000-8000-0000000000a1',
    name: 'Sample Admin',
    roles: ['DirectoryAdmin'],
  });
  const issuerOption = issuer.port === DEFAULT_ISSUER_PORT ? '' : ` --issuer ${issuer.issuer}`;
  const { globalValidation, platform, login } = settings;
  return {
    easyAuth,
    publicOrigin,
    lines: [
      'Azure mode: the app runs as on Flex Consumption behind App Service authentication',
      `  Settings: infra/app/auth-settings.json (authentication ${platform.enabled ? 'on' : 'off'}, ` +
        `unauthenticated: ${globalValidation.requireAuthentication ? globalValidation.unauthenticatedClientAction : 'AllowAnonymous'}, ` +
        `token store ${login.tokenStore.enabled ? 'on' : 'off'})`,
      `  Excluded: ${globalValidation.excludedPaths.join(' ') || '(none)'}`,
      `  Issuer:   ${issuer.issuer} (a local test issuer standing in for Entra ID; client id ${issuer.clientId})`,
      `  Sign in:  ${publicOrigin}/.auth/login/aad?post_login_redirect_uri=/api/console/`,
      `  Token:    npm run -s principal -- --azure${issuerOption} --role DirectoryAdmin   (or --employee Sales/000123, --role DirectoryReader:Sales ...)`,
      `  curl -H "Authorization: Bearer $(npm run -s principal -- --azure${issuerOption} --role DirectoryAdmin)" ${publicOrigin}/api/departments`,
      `  Sample DirectoryAdmin token (valid 1 h): ${sample}`,
    ],
  };
}
