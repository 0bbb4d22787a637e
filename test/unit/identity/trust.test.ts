import { readPlatformAuth } from '../../../src/config';
import { UnauthenticatedError } from '../../../src/domainErrors';
import { encodePrincipalHeader } from '../../../tools/easyauth/principalHeader';
import { authenticate, describePlatform, principalTrust } from '../../../src/identity/trust';

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

  // Each hosting plan as the Functions host recognises it (azure-functions-host
  // EnvironmentExtensions and its tests): any one marker, non-empty, means "in Azure".
  it.each([
    [
      'Flex Consumption',
      {
        WEBSITE_SKU: 'FlexConsumption',
        CONTAINER_NAME: 'app-1',
        WEBSITE_POD_NAME: 'pod-1',
        LEGION_SERVICE_HOST: '10.0.0.1',
      },
      ['WEBSITE_SKU', 'CONTAINER_NAME', 'WEBSITE_POD_NAME', 'LEGION_SERVICE_HOST'],
    ],
    [
      'Flex Consumption (container markers only)',
      { CONTAINER_NAME: 'c', LEGION_SERVICE_HOST: 'h' },
      ['CONTAINER_NAME', 'LEGION_SERVICE_HOST'],
    ],
    [
      'Linux dedicated or Premium',
      { WEBSITE_INSTANCE_ID: 'abc', WEBSITE_SKU: 'ElasticPremium' },
      ['WEBSITE_INSTANCE_ID', 'WEBSITE_SKU'],
    ],
    [
      'Windows Consumption',
      { WEBSITE_INSTANCE_ID: 'abc', WEBSITE_SKU: 'Dynamic' },
      ['WEBSITE_INSTANCE_ID', 'WEBSITE_SKU'],
    ],
    ['Container Apps', { CONTAINER_APP_NAME: 'directory' }, ['CONTAINER_APP_NAME']],
  ])('%s is Azure: trusted only with App Service authentication on', (_plan, env, markers) => {
    const on = readPlatformAuth({ ...env, WEBSITE_AUTH_ENABLED: 'True' });
    expect(on).toMatchObject({ inAzure: true, authEnabled: true, markers });
    expect(principalTrust(on).trusted).toBe(true);
    // The local opt-in never stands in for the platform's word.
    const off = readPlatformAuth({ ...env, TRUST_LOCAL_PRINCIPAL_HEADER: 'true' });
    expect(off.localPrincipalsTrusted).toBe(false);
    expect(principalTrust(off).trusted).toBe(false);
    expect(describePlatform(off)).toMatch(
      /in Azure \(markers: .*\); App Service authentication off; principal header NOT trusted/,
    );
  });

  it('locally (no marker, or only empty ones) believes hand-sent headers only when asked to', () => {
    const blank = { WEBSITE_INSTANCE_ID: '', WEBSITE_SKU: ' ', CONTAINER_NAME: '' };
    const local = readPlatformAuth({ ...blank, TRUST_LOCAL_PRINCIPAL_HEADER: 'true' });
    expect(local).toMatchObject({ inAzure: false, markers: [] });
    expect(principalTrust(local).trusted).toBe(true);
    expect(describePlatform(local)).toBe(
      'Platform: not in Azure (no platform marker set); TRUST_LOCAL_PRINCIPAL_HEADER true; principal header trusted.',
    );
    expect(principalTrust(readPlatformAuth(blank)).trusted).toBe(false);
  });

  it('logs marker names, never their values', () => {
    const line = describePlatform(readPlatformAuth({ CONTAINER_APP_NAME: 'secret-name-42' }));
    expect(line).toContain('CONTAINER_APP_NAME');
    expect(line).not.toContain('secret-name-42');
  });

  it('without it, even a well-formed admin header is no identity (401)', () => {
    const untrusted = principalTrust({
      inAzure: true,
      markers: ['WEBSITE_INSTANCE_ID'],
      authEnabled: false,
      localPrincipalsTrusted: true,
    });
    expect(() => authenticate(adminHeader, untrusted)).toThrow(UnauthenticatedError);
    expect(() => authenticate(undefined, untrusted)).toThrow(/App Service authentication/);
  });

  it('with it, a missing header is no caller and a present one is parsed', () => {
    const trusted = principalTrust({
      inAzure: false,
      markers: [],
      authEnabled: false,
      localPrincipalsTrusted: true,
    });
    expect(authenticate(null, trusted)).toBeUndefined();
    expect(authenticate(adminHeader, trusted)?.roles.has('DirectoryAdmin')).toBe(true);
  });
});
