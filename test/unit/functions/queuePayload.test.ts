/**
 * A queue handler's work (functions/shared/queuePayload.ts `inMessageTrace`) waits out storage
 * that refuses for load within the invocation instead of spending one of the message's five
 * deliveries; any other failure fails the delivery at once.
 */
import { createHttpHeaders, createPipelineRequest, RestError } from '@azure/core-rest-pipeline';
import { inMessageTrace } from '../../../functions/shared/queuePayload';

function serverBusy(): RestError {
  const request = createPipelineRequest({ url: 'http://127.0.0.1:10001/devstoreaccount1/q' });
  const error = new RestError('Storage said 503', {
    statusCode: 503,
    request,
    response: { status: 503, headers: createHttpHeaders(), request, bodyAsText: '' },
  });
  error.details = { errorCode: 'ServerBusy' };
  return error;
}

it('runs the work again while storage is busy, then completes the delivery', async () => {
  const payloads: unknown[] = [];
  const result = await inMessageTrace('q', '{"n":1}', async (payload) => {
    payloads.push(payload);
    if (payloads.length < 3) throw serverBusy();
    return 'done';
  });
  expect(result).toBe('done');
  expect(payloads).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
});

it('fails the delivery at once for anything but load', async () => {
  let runs = 0;
  const bug = new TypeError('a bug');
  await expect(
    inMessageTrace('q', '{}', async () => {
      runs++;
      throw bug;
    }),
  ).rejects.toBe(bug);
  expect(runs).toBe(1);
});
