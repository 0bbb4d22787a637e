/**
 * Create-once per process and client: concurrent first calls share one creation, a success is
 * never repeated, a failure is forgotten so the next call tries again, and each client has its own.
 * (The create step is a plain function here; the storage calls it wraps are exercised against
 * Azurite by every feature's integration tests.)
 */
import { DomainError } from '../../../src/domainErrors';
import { oncePerClient } from '../../../src/storage/createOnce';

describe('oncePerClient', () => {
  it('runs the creation once for concurrent and later calls on one client', async () => {
    const calls: object[] = [];
    const ensure = oncePerClient(async (client: object) => {
      calls.push(client);
    });
    const client = {};
    await Promise.all([ensure(client), ensure(client), ensure(client)]);
    await ensure(client);
    expect(calls).toEqual([client]);
  });

  it('creates for each client separately', async () => {
    let calls = 0;
    const ensure = oncePerClient(async () => {
      calls += 1;
    });
    await ensure({});
    await ensure({});
    expect(calls).toBe(2);
  });

  it('forgets a failed creation, as a domain error, and tries again on the next call', async () => {
    let calls = 0;
    const ensure = oncePerClient(async () => {
      calls += 1;
      if (calls === 1)
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    const client = {};
    await expect(ensure(client)).rejects.toBeInstanceOf(DomainError);
    await ensure(client);
    await ensure(client);
    expect(calls).toBe(2);
  });
});
