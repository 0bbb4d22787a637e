/**
 * A drain that storage refuses past the SDK's retries (503 ServerBusy: Azure's scalability
 * targets, docs/targets.md) waits: a nudge for the department is sent for later and the message
 * completes, instead of failing five times into the poison queue. The nudge then drains it all.
 */
import {
  handleIndexUpdateMessage,
  RELOCATING_NUDGE_DELAY_SECONDS,
} from '../../../../src/indexing/queue/indexUpdates';
import { decodeQueueMessage } from '../../../../src/storage/queue';
import type { FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { clientsThrough, startTestProxy } from '../../storage/proxyFixture';
import { createIndexingFixture, employeeBody, type IndexingFixture } from '../fixture';

let proxy: FaultProxy;
let fixture: IndexingFixture;
beforeAll(async () => {
  proxy = await startTestProxy();
  fixture = createIndexingFixture({ clients: clientsThrough(proxy, { STORAGE_MAX_RETRIES: '0' }) });
});
afterAll(async () => {
  await fixture.cleanup();
  await proxy.stop();
});

it('a drain refused by busy storage is nudged again for later; the message completes', async () => {
  await fixture.directory.departments.put('Busy', {});
  for (let n = 1; n <= 3; n++) await fixture.directory.employees.create('Busy', employeeBody(n));
  const queue = fixture.clients.queue(fixture.names.queue);
  // The writes' own nudges (sent after a linger) and covers: this test sends its own.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await queue.clearMessages();

  proxy.setFaults({ rate: 1, kinds: ['503'], services: ['table'] });
  let outcome: unknown;
  try {
    outcome = await handleIndexUpdateMessage(fixture.drains, { v: 2, departments: ['Busy'] });
  } finally {
    proxy.setFaults(null);
  }
  expect(outcome).toEqual({ employees: 0, gone: 0, waiting: ['Busy'] });
  // The nudge for later: on the queue, invisible for the wait.
  expect((await queue.peekMessages()).peekedMessageItems).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, (RELOCATING_NUDGE_DELAY_SECONDS + 1) * 1000));
  const [message] = (await queue.receiveMessages()).receivedMessageItems;
  expect(decodeQueueMessage(message!.messageText)).toMatchObject({ v: 2, departments: ['Busy'] });
  expect(await handleIndexUpdateMessage(fixture.drains, { v: 2, departments: ['Busy'] })).toEqual({
    employees: 3,
    gone: 0,
  });
}, 30_000);
