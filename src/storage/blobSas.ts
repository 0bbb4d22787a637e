/**
 * Signs blob SAS (the storage account's mechanism; who gets which token is src/sas's and
 * src/photos' business) in one of two ways, chosen by configuration:
 *
 * - **service SAS** when an account key is configured: signed locally with the key, no round trip;
 * - **user delegation SAS** when the app reaches storage with a managed identity and holds no key:
 *   signed with a user delegation key that the identity obtains from the Blob service
 *   (`Get User Delegation Key`, needs a role with `generateUserDelegationKey`, e.g. Storage Blob
 *   Delegator). The key is cached and reused while it outlives the tokens it signs, so issuance
 *   costs one round trip per key lifetime, not per token.
 */
import {
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
  type BlobSASSignatureValues,
  type BlobServiceClient,
  type UserDelegationKey,
} from '@azure/storage-blob';
import { toDomainError } from './storageFaults';
import type { SharedKey } from './clients';

/**
 * How far back a token's start is set, to absorb clock skew between machines (storage and the
 * client compare `st` with their own clocks).
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The start (`st`) of a token issued at `at` that expires at `expiresAt` (ms):
 * {@link CLOCK_SKEW_MS} in the past, but never so far that the validity storage measures,
 * `se` − `st`, exceeds `maxLifetimeMs` (the app's cap, which is also the account's SAS expiration
 * policy): the backdating is counted inside the lifetime, so a token of the longest lifetime
 * starts at `at`. Whole seconds in, whole seconds out.
 */
export function backdatedStart(at: number, expiresAt: number, maxLifetimeMs: number): Date {
  return new Date(Math.max(at - CLOCK_SKEW_MS, expiresAt - maxLifetimeMs));
}

/**
 * The longest a user delegation key is asked to live: Azure refuses a key whose expiry is more
 * than 7 days after its own clock's now, so 7 days less {@link CLOCK_SKEW_MS} for a storage clock
 * behind this one. The longest token (SAS_MAX_MINUTES, src/config) must fit in it.
 */
export const MAX_DELEGATION_KEY_MS = 7 * 24 * 60 * 60_000 - CLOCK_SKEW_MS;

/**
 * The signed version (`sv`) of every blob SAS. Pinned rather than left to the SDK's newest, so the
 * string-to-sign is one that both Azure and the local emulator compute: SDK 12.32 defaults to
 * 2026-04-06, whose user delegation string-to-sign gained fields Azurite 3.35 does not know yet.
 */
const BLOB_SAS_VERSION = '2025-11-05';

/** Which credential signed a token. */
export type BlobSasKind = 'accountKey' | 'userDelegationKey';

/** Signs blob and container SAS. */
export interface BlobSasSigner {
  readonly kind: BlobSasKind;
  /**
   * The SAS query string (no leading `?`) for these values.
   *
   * @throws {DomainError} when a user delegation key cannot be obtained from storage.
   */
  sign(values: BlobSASSignatureValues): Promise<string>;
}

/** A signer that uses the account key (service SAS). */
export function accountKeySigner(key: SharedKey): BlobSasSigner {
  const credential = new StorageSharedKeyCredential(key.accountName, key.accountKey);
  return {
    kind: 'accountKey',
    sign: async (values) =>
      generateBlobSASQueryParameters(
        { ...values, version: BLOB_SAS_VERSION },
        credential,
      ).toString(),
  };
}

/**
 * A signer resolved when it first signs (and until then again at each use: a resolution that
 * throws is not kept), so that a signer which cannot be built — an unusable account key — fails
 * the tokens it would sign, not the feature that holds it.
 *
 * @param resolve - builds the signer; what it throws, {@link BlobSasSigner.sign} rejects with
 *   (and reading `kind` throws).
 */
export function lazySigner(resolve: () => BlobSasSigner): BlobSasSigner {
  let signer: BlobSasSigner | undefined;
  const resolved = (): BlobSasSigner => (signer ??= resolve());
  return {
    get kind() {
      return resolved().kind;
    },
    sign: async (values) => resolved().sign(values),
  };
}

/** How long a fetched user delegation key stays valid beyond the longest token it must sign. */
const DELEGATION_KEY_SLACK_MS = 60 * 60_000;

/**
 * A signer that uses user delegation keys of the given (token-authorised) Blob service client.
 *
 * @param blobService - a client authorised with a Microsoft Entra identity.
 * @param accountName - the storage account's name.
 * @param maxTokenMs - the longest token lifetime it will be asked to sign (at most
 *   {@link MAX_DELEGATION_KEY_MS}: config refuses a longer SAS_MAX_MINUTES).
 * @param now - clock (tests).
 */
export function userDelegationSigner(
  blobService: BlobServiceClient,
  accountName: string,
  maxTokenMs: number,
  now: () => Date = () => new Date(),
): BlobSasSigner {
  let cached: Promise<UserDelegationKey> | undefined;
  let cachedKey: UserDelegationKey | undefined;

  const covers = (key: UserDelegationKey, values: BlobSASSignatureValues): boolean =>
    key.signedStartsOn.getTime() <= (values.startsOn ?? now()).getTime() &&
    key.signedExpiresOn.getTime() >= (values.expiresOn ?? now()).getTime();

  const fetchKey = async (): Promise<UserDelegationKey> => {
    const at = now().getTime();
    try {
      const response = await blobService.getUserDelegationKey(
        new Date(at - 2 * CLOCK_SKEW_MS),
        // The slack is what goes past the cap: the key still outlives the longest token.
        new Date(at + Math.min(maxTokenMs + DELEGATION_KEY_SLACK_MS, MAX_DELEGATION_KEY_MS)),
      );
      return {
        signedObjectId: response.signedObjectId,
        signedTenantId: response.signedTenantId,
        signedStartsOn: new Date(response.signedStartsOn),
        signedExpiresOn: new Date(response.signedExpiresOn),
        signedService: response.signedService,
        signedVersion: response.signedVersion,
        value: response.value,
      };
    } catch (error) {
      throw toDomainError(error);
    }
  };

  const keyFor = async (values: BlobSASSignatureValues): Promise<UserDelegationKey> => {
    if (cachedKey && covers(cachedKey, values)) return cachedKey;
    if (!cached) {
      cached = fetchKey().then(
        (key) => {
          cachedKey = key;
          cached = undefined;
          return key;
        },
        (error: unknown) => {
          cached = undefined;
          throw error;
        },
      );
    }
    const key = await cached;
    if (covers(key, values)) return key;
    // A concurrent fetch started earlier than this token's window: fetch once more for it.
    cachedKey = await fetchKey();
    return cachedKey;
  };

  return {
    kind: 'userDelegationKey',
    async sign(values) {
      const key = await keyFor(values);
      return generateBlobSASQueryParameters(
        { ...values, version: BLOB_SAS_VERSION },
        key,
        accountName,
      ).toString();
    },
  };
}
