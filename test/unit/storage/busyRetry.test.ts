/**
 * `whileBusy` (src/storage/busyRetry.ts): storage refusing for load is waited out with growing,
 * jittered waits; a freeze, a lost race or any other failure is not retried; the last refusal
 * ends the call as a `ThrottledError` once the tries are spent.
 */
import { createHttpHeaders, createPipelineRequest, RestError } from '@azure/core-rest-pipeline';
import { ThrottledError } from '../../../src/domainErrors';
import { storageBusySeconds, whileBusy } from '../../../src/storage/busyRetry';
import { toDomainError } from '../../../src/storage/storageFaults';
import type { RetryTiming } from '../../../src/storage/optimisticRetry';

function storageError(statusCode: number, errorCode: string): RestError {
  const request = createPipelineRequest({ url: 'http://127.0.0.1:10002/devstoreaccount1/T' });
  const error = new RestError(`Storage said ${statusCode}`, {
    statusCode,
    request,
    response: { status: statusCode, headers: createHttpHeaders(), request, bodyAsText: '' },
  });
  error.details = { errorCode };
  return error;
}

function fakeTiming(): RetryTiming & { slept: number[] } {
  const slept: number[] = [];
  return { slept, sleep: async (ms) => void slept.push(ms), random: () => 1 - Number.EPSILON };
}

it('tells load apart from a freeze, a lost race and other failures', () => {
  expect(storageBusySeconds(storageError(503, 'ServerBusy'))).toBe(5);
  expect(storageBusySeconds(storageError(500, 'OperationTimedOut'))).toBe(5);
  expect(storageBusySeconds(toDomainError(storageError(503, 'ServerBusy')))).toBe(5);
  expect(storageBusySeconds(new ThrottledError('frozen', 2, { code: 'Relocating' }))).toBe(
    undefined,
  );
  expect(storageBusySeconds(storageError(412, 'UpdateConditionNotSatisfied'))).toBe(undefined);
  expect(storageBusySeconds(new Error('a bug'))).toBe(undefined);
});

it('waits out refusals with exponentially growing waits, then returns the answer', async () => {
  const timing = fakeTiming();
  let tries = 0;
  const result = await whileBusy(
    async () => {
      tries++;
      if (tries < 5) throw storageError(503, 'ServerBusy');
      return 'read';
    },
    { timing, baseMs: 100, capMs: 500 },
  );
  expect(result).toBe('read');
  expect(timing.slept.map(Math.round)).toEqual([100, 200, 400, 500]);
});

it('ends as a ThrottledError after its tries, and passes anything else on at once', async () => {
  const timing = fakeTiming();
  let tries = 0;
  const refused = whileBusy(
    async () => {
      tries++;
      throw storageError(503, 'ServerBusy');
    },
    { timing, maxAttempts: 3 },
  );
  await expect(refused).rejects.toBeInstanceOf(ThrottledError);
  expect(tries).toBe(3);
  const frozen = new ThrottledError('frozen', 2, { code: 'Relocating' });
  tries = 0;
  await expect(
    whileBusy(
      async () => {
        tries++;
        throw frozen;
      },
      { timing },
    ),
  ).rejects.toBe(frozen);
  expect(tries).toBe(1);
});
