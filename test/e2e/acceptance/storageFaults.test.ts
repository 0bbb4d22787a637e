/**
 * Contract acceptance for storage outages: when every storage request fails with 503 (after the
 * SDK's retries), `GET /health` answers 503 `"storage":"unreachable"` and API routes answer 503
 * with `Retry-After` and the JSON error body — never a 500 — and nothing is half-written.
 */
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { startHost, type RunningHost } from '../../support/host';
import {
  eventually,
  expectError,
  expectJson,
  send,
  seg,
  uniqueDepartment,
  type Reply,
  type SendOptions,
} from './client';

let proxy: FaultProxy;
let host: RunningHost;

beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  host = await startHost({
    env: {
      AzureWebJobsStorage: proxy.connectionString,
      // Give up quickly: the outage is total, retrying longer only slows the test.
      STORAGE_MAX_RETRIES: '1',
      STORAGE_RETRY_DELAY_MS: '10',
      STORAGE_MAX_RETRY_DELAY_MS: '20',
    },
  });
});
afterAll(async () => {
  await host?.stop();
  await proxy?.stop();
});

const call = (method: string, path: string, options?: SendOptions): Promise<Reply> =>
  send(host.baseUrl, method, path, options);

it('answers 503 with Retry-After during an outage and stores nothing half-way', async () => {
  const dept = uniqueDepartment('Outage');
  expectJson(await call('PUT', `/departments/${seg(dept)}`, { json: {} }), 201);

  proxy.setFaults({ rate: 1, kinds: ['503'] });
  try {
    const health = await call('GET', '/health', { principal: null });
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: expect.any(String), storage: 'unreachable' });

    const read = await call('GET', `/departments/${seg(dept)}`);
    expectError(read, 503);
    expect(Number(read.headers.get('retry-after'))).toBeGreaterThan(0);

    const create = await call('POST', `/departments/${seg(dept)}/employees`, {
      json: { employeeId: '000001', firstName: 'A', lastName: 'B', email: 'a@b.io' },
    });
    expectError(create, 503);
    expect(create.headers.get('retry-after')).toBeTruthy();
  } finally {
    proxy.setFaults(null);
  }

  // Health probes storage at most once per 5 s per instance: back to 200 within that interval.
  await eventually(async () => {
    const health = await call('GET', '/health', { principal: null });
    return health.status === 200 ? health : undefined;
  });
  expectError(await call('GET', `/departments/${seg(dept)}/employees/000001`), 404);
  expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(0);
});
