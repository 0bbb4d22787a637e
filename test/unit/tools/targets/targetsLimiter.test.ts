/**
 * The limiter of the targets front: a scope over its per-second target is refused with the scope
 * named; a request bigger than a whole second's budget is still admitted into an empty window
 * (Azure throttles a rate, never one transaction for its size), its excess owed.
 */
import { TargetsLimiter } from '../../../../tools/targets/targetsLimiter';

const targets = { accountRequests: 100, partitionEntities: 5, queueMessages: 5, blobRequests: 5 };
const batch = (entities: number) => ({ account: 'a', partition: { key: 'T/p', entities } });

test('a partition over its entities per second is refused, naming the partition', async () => {
  const limiter = new TargetsLimiter(targets);
  expect(await limiter.admit(batch(3))).toBeUndefined();
  expect(await limiter.admit(batch(2))).toBeUndefined();
  expect(await limiter.admit(batch(1))).toMatchObject({ scope: 'partition' });
  // Another partition has its own budget.
  expect(
    await limiter.admit({ account: 'a', partition: { key: 'T/q', entities: 5 } }),
  ).toBeUndefined();
  expect(limiter.throttled()).toEqual({ account: 0, partition: 1, queue: 0, blob: 0 });
});

test('a batch bigger than the budget is admitted into an empty window; the window is then spent', async () => {
  const limiter = new TargetsLimiter(targets);
  expect(await limiter.admit(batch(6))).toBeUndefined();
  expect(await limiter.admit(batch(1))).toMatchObject({ scope: 'partition' });
});
