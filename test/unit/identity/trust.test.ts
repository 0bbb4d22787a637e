import { readPlatformAuth } from '../../../src/config';
import { UnauthenticatedError } from '../../../src/errors';
import { encodePrincipalHeader } from '../../../src/identity/principal';
import { authenticate, principalTrust } from '../../../src/identity/trust';

const adminHeader = encodePrincipalHeader({ userId: 'boss', roles: ['DirectoryAdmin'] });

describe('trust in the principal header', () => {
  it('is given locally only when asked for, and in Azure only with App Service authentication on', () => {
    expect(principalTrust(readPlatformAuth({})).trusted).toBe(false);
    expect(principalTrust(readPlatformAuth({ TRUST_LOCAL_PRINCIPAL_HEADER: 'true' })).trusted).toBe(
      true,
    );
    // In Azure the local opt-in counts for nothing.
    expect(
      principalTrust(
        readPlatformAuth({ WEBSITE_INSTANCE_ID: 'abc', TRUST_LOCAL_PRINCIPAL_HEADER: 'true' }),
      ).trusted,
    ).toBe(false);
    expect(
      principalTrust(readPlatformAuth({ WEBSITE_INSTANCE_ID: 'abc', WEBSITE_AUTH_ENABLED: 'True' }))
        .trusted,
    ).toBe(true);
    expect(principalTrust(readPlatformAuth({ WEBSITE_INSTANCE_ID: 'abc' })).trusted).toBe(false);
    expect(
      principalTrust(
        readPlatformAuth({ WEBSITE_INSTANCE_ID: 'abc', WEBSITE_AUTH_ENABLED: 'False' }),
      ).trusted,
    ).toBe(false);
  });

  it('without it, even a well-formed admin header is no identity (401)', () => {
    const untrusted = principalTrust({
      inAzure: true,
      authEnabled: false,
      localPrincipalsTrusted: true,
    });
    expect(() => authenticate(adminHeader, untrusted)).toThrow(UnauthenticatedError);
    expect(() => authenticate(undefined, untrusted)).toThrow(/App Service authentication/);
  });

  it('with it, a missing header is no caller and a present one is parsed', () => {
    const trusted = principalTrust({
      inAzure: false,
      authEnabled: false,
      localPrincipalsTrusted: true,
    });
    expect(authenticate(null, trusted)).toBeUndefined();
    expect(authenticate(adminHeader, trusted)?.roles.has('DirectoryAdmin')).toBe(true);
  });
});
