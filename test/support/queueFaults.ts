/**
 * Queue faults on a client's own pipeline: storage under strain refusing a queue's delayed sends
 * (the outbox covers), so a test can see what a write does when its cover cannot be stored.
 */
import { RestError } from '@azure/core-rest-pipeline';
import type { QueueClient } from '@azure/storage-queue';

/**
 * Makes every delayed send (a message with a visibility timeout: a cover) on `queue` fail with
 * 503 `ServerBusy`, thrown from the pipeline so the SDK does not retry it; other requests pass.
 * Returns the same client.
 */
export function refuseCovers(queue: QueueClient): QueueClient {
  queue['storageClientContext'].queuesClient.pipeline.addPolicy({
    name: 'refuseCovers',
    async sendRequest(request, next) {
      if (request.method === 'POST' && /visibilitytimeout=[1-9]/i.test(request.url)) {
        throw new RestError('The server is busy.', { statusCode: 503, request });
      }
      return next(request);
    },
  });
  return queue;
}
