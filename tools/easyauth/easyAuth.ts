/**
 * The Azure-mode pair the launcher and the tests start together: the test issuer
 * ({@link ./testIssuer}) standing in for Entra ID, and the front ({@link ./front}) configured as
 * the deployment configures App Service authentication (the settings file, the client id as
 * audience, `api://<client id>` too).
 */
import { startFront, type RunningFront } from './front';
import { startTestIssuer, type TestIssuer, type TestUser } from './testIssuer';
import type { AuthSettings } from './settings';

/** The client id of the local app registration (Azure's is the bicep's `authClientId`). */
export const LOCAL_CLIENT_ID = '11111111-2222-4333-8444-555555555555';

/** How the local App Service authentication front checks tokens. */
export interface EasyAuthOptions {
  settings: AuthSettings;
  /** The front's port (default 0: a free one). */
  port?: number;
  /** The issuer's port (default 0: a free one). */
  issuerPort?: number;
  /** Where both listen; default 127.0.0.1. */
  listenAddress?: string;
  /** The app host's origin, when already known. */
  upstream?: string;
  clientId?: string;
  /** The sign-in page's users. */
  users?: readonly TestUser[];
  /** The internal host's secret the front sends with every request (front.ts). */
  upstreamSecret?: string;
}

/** The local App Service authentication: the front and the test token issuer it trusts. */
export interface EasyAuth {
  front: RunningFront;
  issuer: TestIssuer;
  /** Stops the front, then the issuer. */
  close(): Promise<void>;
}

/**
 * Starts the issuer, then the front in front of `upstream`.
 *
 * @throws {Error} when a port cannot be bound (nothing is left running).
 */
export async function startEasyAuth(options: EasyAuthOptions): Promise<EasyAuth> {
  const clientId = options.clientId ?? LOCAL_CLIENT_ID;
  const listenAddress = options.listenAddress ?? '127.0.0.1';
  const issuer = await startTestIssuer({
    clientId,
    port: options.issuerPort ?? 0,
    listenAddress: '127.0.0.1',
    ...(options.users ? { users: options.users } : {}),
  });
  let front: RunningFront;
  try {
    front = await startFront({
      settings: options.settings,
      openIdIssuer: issuer.issuer,
      clientId,
      port: options.port ?? 0,
      listenAddress,
      ...(options.upstream ? { upstream: options.upstream } : {}),
      ...(options.upstreamSecret ? { upstreamSecret: options.upstreamSecret } : {}),
    });
  } catch (error) {
    await issuer.close();
    throw error;
  }
  return {
    front,
    issuer,
    async close() {
      await front.close();
      await issuer.close();
    },
  };
}
