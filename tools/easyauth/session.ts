/**
 * The sign-in session of the Azure-mode front: what App Service keeps in its
 * `AppServiceAuthSession` cookie. Its content is an encrypted JWT (jose, `dir` + `A256GCM`) under
 * a key made when the front starts, so a client can neither read nor forge nor alter one, and
 * every session ends with the front.
 */
import { EncryptJWT, generateSecret, jwtDecrypt, type JWTPayload, type KeyLike } from 'jose';

/** The cookie App Service authentication keeps its session in. */
export const SESSION_COOKIE = 'AppServiceAuthSession';
/** App Service's default session lifetime (`login.cookieExpiration.timeToExpiration` 08:00:00). */
export const SESSION_LIFETIME_SECONDS = 8 * 60 * 60;

/** What a session holds: the validated id token and its claims. */
export interface Session {
  idToken: string;
  claims: JWTPayload;
}

/** Seals and opens sessions with one key. */
export interface SessionCodec {
  /** The cookie value for a session (valid for `lifetimeSeconds`). */
  seal(session: Session, lifetimeSeconds?: number): Promise<string>;
  /** The session in a cookie value, or `undefined` when it is not one of ours or has expired. */
  open(value: string): Promise<Session | undefined>;
}

/** A codec with a fresh random key. */
export async function createSessionCodec(): Promise<SessionCodec> {
  const key: KeyLike | Uint8Array = await generateSecret('A256GCM');
  return {
    seal: (session, lifetimeSeconds = SESSION_LIFETIME_SECONDS) =>
      new EncryptJWT({ idt: session.idToken, claims: session.claims })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt()
        .setExpirationTime(`${lifetimeSeconds}s`)
        .encrypt(key),
    async open(value) {
      try {
        const { payload } = await jwtDecrypt(value, key);
        const { idt, claims } = payload as { idt?: unknown; claims?: unknown };
        if (typeof idt !== 'string' || claims === null || typeof claims !== 'object') {
          return undefined;
        }
        return { idToken: idt, claims: claims as JWTPayload };
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * `Set-Cookie` for a cookie of the front: `HttpOnly; Secure; SameSite=None`, the weakest a
 * browser accepts across sites, so that the app's own CSRF defences are what tests exercise
 * (Chromium keeps `Secure` cookies of http://localhost and http://127.0.0.1).
 */
export function frontCookie(
  name: string,
  value: string,
  options: { path?: string; maxAgeSeconds?: number } = {},
): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  parts.push('HttpOnly', 'Secure', 'SameSite=None');
  return parts.join('; ');
}
