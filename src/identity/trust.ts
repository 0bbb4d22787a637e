/**
 * Whether the principal header can be believed. In Azure the platform writes
 * `x-ms-client-principal` only when App Service authentication is on, and strips any copy a client
 * sent; with authentication off, the header is whatever the client chose to send. Elsewhere no
 * platform vouches for it: it is believed only where the developer said so
 * (`TRUST_LOCAL_PRINCIPAL_HEADER=true`, which `npm start`, the sample local.settings.json and the
 * tests set), so a copy of the app run in a container or on a shared machine fails closed.
 */
import { unauthenticated } from './identityErrors';
import type { PlatformAuth } from '../config';
import { parsePrincipalHeader, type Principal } from './principal';

/** The answer to "may the principal header be believed here?". */
export type PrincipalTrust = { trusted: true } | { trusted: false; reason: string };

/** Decides whether the principal header is trusted on this platform. */
export function principalTrust(platform: PlatformAuth): PrincipalTrust {
  if (platform.inAzure) {
    return platform.authEnabled
      ? { trusted: true }
      : {
          trusted: false,
          reason:
            'App Service authentication is not enabled for this app, so no caller can be ' +
            'identified (turn it on: see docs/security.md).',
        };
  }
  return platform.localPrincipalsTrusted
    ? { trusted: true }
    : {
        trusted: false,
        reason:
          'No App Service authentication stands in front of this app and ' +
          'TRUST_LOCAL_PRINCIPAL_HEADER is not true, so hand-sent principals are not believed ' +
          '(see docs/security.md).',
      };
}

/**
 * One line for the startup log: where the app believes it runs (the marker names it saw, never
 * their values) and whether principal headers are believed.
 */
export function describePlatform(platform: PlatformAuth): string {
  const where = platform.inAzure
    ? `in Azure (markers: ${platform.markers.join(', ')})`
    : 'not in Azure (no platform marker set)';
  const auth = platform.inAzure
    ? `App Service authentication ${platform.authEnabled ? 'on' : 'off'}`
    : `TRUST_LOCAL_PRINCIPAL_HEADER ${platform.localPrincipalsTrusted ? 'true' : 'not true'}`;
  const trust = principalTrust(platform).trusted
    ? 'principal header trusted'
    : 'principal header NOT trusted: protected routes answer 401';
  return `Platform: ${where}; ${auth}; ${trust}.`;
}

/**
 * The caller of a request, from its principal header.
 *
 * @returns `undefined` when the request carries no principal.
 * @throws {UnauthenticatedError} when the header cannot be trusted here, or is malformed.
 */
export function authenticate(
  header: string | null | undefined,
  trust: PrincipalTrust,
): Principal | undefined {
  if (!trust.trusted) throw unauthenticated(trust.reason);
  if (header === null || header === undefined || header === '') return undefined;
  return parsePrincipalHeader(header);
}
