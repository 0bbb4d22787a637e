/**
 * In Azure (any marker the Functions host knows a hosted instance by: `WEBSITE_INSTANCE_ID` on App
 * Service plans, `WEBSITE_SKU=FlexConsumption` with `CONTAINER_NAME` and `LEGION_SERVICE_HOST` but
 * no `WEBSITE_INSTANCE_ID` on Flex Consumption) the principal header is believed only when App
 * Service authentication is on, whatever `TRUST_LOCAL_PRINCIPAL_HEADER` says. A host started as if
 * in Azure without it: a hand-made admin header gets 401, and health says why.
 */
import { encodePrincipalHeader } from '../../../tools/easyauth/principalHeader';
import { startHost, type RunningHost } from '../../support/host';
import { expectError, expectJson, send } from '../acceptance/client';

const admin = encodePrincipalHeader({ userId: 'forger', roles: ['DirectoryAdmin'] });

/** A Flex Consumption instance's markers: no WEBSITE_INSTANCE_ID there. */
const FLEX = {
  WEBSITE_SKU: 'FlexConsumption',
  CONTAINER_NAME: 'e2e-container',
  LEGION_SERVICE_HOST: 'e2e-legion',
  WEBSITE_INSTANCE_ID: '',
};
const APP_SERVICE = { WEBSITE_INSTANCE_ID: 'e2e-instance' };

describe.each([
  ['an App Service instance', APP_SERVICE],
  ['a Flex Consumption instance', FLEX],
])('%s without App Service authentication, told to trust local principals', (_, markers) => {
  let host: RunningHost;
  beforeAll(async () => {
    host = await startHost({
      env: { ...markers, WEBSITE_AUTH_ENABLED: '', TRUST_LOCAL_PRINCIPAL_HEADER: 'true' },
    });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('answers 401 to a hand-made admin principal on every kind of route', async () => {
    for (const [method, path] of [
      ['GET', '/departments'],
      ['POST', '/sas/logs'],
      ['POST', '/maintenance/indexes/audit'],
    ] as const) {
      const reply = await send(host.baseUrl, method, path, {
        principal: admin,
        ...(method === 'POST' ? { json: {} } : {}),
      });
      const error = expectError(reply, 401, 'Unauthenticated');
      expect(error.message).toMatch(/App Service authentication is not enabled/);
    }
  });

  it('says "auth":"missing" on the anonymous health route', async () => {
    const body = expectJson(await send(host.baseUrl, 'GET', '/health', { principal: null }), 200);
    expect(body).toMatchObject({ status: 'ok', storage: 'ok', auth: 'missing' });
  });
});

describe.each([
  ['an App Service instance', APP_SERVICE],
  ['a Flex Consumption instance', FLEX],
])('%s with App Service authentication', (_, markers) => {
  let host: RunningHost;
  beforeAll(async () => {
    host = await startHost({ env: { ...markers, WEBSITE_AUTH_ENABLED: 'True' } });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('believes the header the platform put there, and health has no complaint', async () => {
    const reply = await send(host.baseUrl, 'GET', '/departments', {
      principal: admin,
    });
    expectJson(reply, 200);
    const health = expectJson(await send(host.baseUrl, 'GET', '/health', { principal: null }), 200);
    expect(health.auth).toBeUndefined();
  });

  it('logs at startup where it believes it runs (marker names only)', async () => {
    await host.waitForOutput(
      /Platform: in Azure \(markers: [A-Z_, ]+\); App Service authentication on/,
    );
    expect(host.output()).not.toContain('e2e-container');
  });
});

describe('a host outside Azure that was not told to believe hand-sent principals', () => {
  let host: RunningHost;
  beforeAll(async () => {
    host = await startHost({ env: { TRUST_LOCAL_PRINCIPAL_HEADER: '' } });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('fails closed: 401 for a hand-made admin, and health says "auth":"missing"', async () => {
    const reply = await send(host.baseUrl, 'GET', '/departments', { principal: admin });
    const error = expectError(reply, 401, 'Unauthenticated');
    expect(error.message).toMatch(/TRUST_LOCAL_PRINCIPAL_HEADER/);
    const health = expectJson(await send(host.baseUrl, 'GET', '/health', { principal: null }), 200);
    expect(health.auth).toBe('missing');
  });
});
