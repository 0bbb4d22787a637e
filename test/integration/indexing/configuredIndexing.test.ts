/**
 * The one place the index storage is built from the configuration: the last-name shard size and
 * the nudge delay set in the environment reach the stores and the change queue
 * that every process part (HTTP directory, queue workers, orchestrations) uses.
 */
import { odata } from '@azure/data-tables';
import { loadConfig } from '../../../src/config';
import {
  configuredChangeQueue,
  configuredIndexStores,
} from '../../../src/indexing/configuredIndexing';
import {
  DEFAULT_NUDGE_LINGER_MS,
  queueChangeSink,
} from '../../../src/indexing/queue/queueChangeSink';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

function configWith(settings: Record<string, string>): ReturnType<typeof loadConfig> {
  return loadConfig({
    AzureWebJobsStorage: process.env.AzureWebJobsStorage,
    EMPLOYEES_TABLE: uniqueTableName('CfgEmp'),
    EMPLOYEE_INDEX_TABLE: uniqueTableName('CfgIdx'),
    INDEX_QUEUE: uniqueName('cfgidx'),
    ...settings,
  });
}

it('shards org-wide last-name entities at LASTNAME_INDEX_SHARD_CHARS', async () => {
  const config = configWith({ LASTNAME_INDEX_SHARD_CHARS: '200' });
  const clients = testClients();
  const stores = configuredIndexStores(config, clients);
  await stores.index.createTable();
  try {
    const members = Array.from({ length: 30 }, (_, i) => ({
      department: 'Sales',
      employeeId: String(i).padStart(6, '0'),
    }));
    await Promise.all(members.map((member) => stores.lastNames.add('Jones', member)));
    const shards: string[] = [];
    for await (const e of stores.index.listEntities<{ Members: string }>({
      queryOptions: { filter: odata`PartitionKey eq ${'lastnames_j'}` },
    })) {
      // Written with every change (lastNameStoreChange.test.ts).
      if (e.rowKey === 'jones%~~fence') continue;
      expect(e.Members.length).toBeLessThanOrEqual(200);
      shards.push(String(e.rowKey));
    }
    expect(shards.length).toBeGreaterThan(1);
    expect((await stores.lastNames.members('jones')).length).toBe(30);
  } finally {
    await stores.index.deleteTable();
  }
});

it.each([
  ['0', 3],
  ['30', 1],
])(
  'nudges with INDEX_NUDGE_DELAY_SECONDS=%s: %d messages for four writes in two departments',
  async (delay, expected) => {
    const config = configWith({ INDEX_NUDGE_DELAY_SECONDS: delay });
    const clients = testClients();
    const queue = clients.queue(config.queues.indexUpdates);
    try {
      const changes = configuredChangeQueue(config, clients);
      expect(changes.outbox).toBe(true);
      const write = (department: string): Promise<void> =>
        changes.publish([{ department, employeeId: '000001', reason: 'updated' }]);
      // Three writes at once share one nudge, and one cover (each write waits for the cover).
      await Promise.all([write('Sales'), write('Sales'), write('Ops')]);
      await changes.settled();
      // A write after that nudge is stored needs another, unless a delayed one is still invisible;
      // the cover, still invisible, stands in for it too.
      await write('Sales');
      await changes.settled();
      expect((await queue.getProperties()).approximateMessagesCount).toBe(expected);
      const visible = (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
      if (delay === '0') {
        expect(visible.map((m) => decodeQueueMessage(m.messageText))).toEqual([
          { v: 2, departments: ['Sales', 'Ops'] },
          { v: 2, departments: ['Sales'] },
        ]);
      } else {
        expect(visible).toEqual([]); // delayed, and the cover: the drain starts after every write above
      }
    } finally {
      await queue.delete();
    }
  },
);

it.each([
  // Longer than the default, so that the writes' covers (each waits for the first of its
  // department's window) fit in it on a loaded machine.
  [10 * DEFAULT_NUDGE_LINGER_MS, 1],
  [0, 3],
])(
  'a nudge lingers %d ms for the writes that follow: %d messages for three writes',
  async (lingerMs, expected) => {
    const queue = testClients().queue(uniqueName('linger'));
    try {
      const changes = queueChangeSink(queue, { nudgeLingerMs: lingerMs });
      for (const department of ['Sales', 'Ops', 'Sales']) {
        await changes.publish([{ department, employeeId: '000001', reason: 'created' }]);
        // Without a linger each nudge is stored before the next write: nothing to share it with.
        if (lingerMs === 0) await changes.settled();
      }
      await changes.settled();
      const messages = (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
      expect(messages).toHaveLength(expected);
      expect(
        new Set(
          messages.flatMap(
            (m) => (decodeQueueMessage(m.messageText) as { departments: string[] }).departments,
          ),
        ),
      ).toEqual(new Set(['Sales', 'Ops']));
    } finally {
      await queue.delete();
    }
  },
);

it('reports a nudge it cannot send, and the write that published it does not fail', async () => {
  // An invalid queue name: the service refuses the queue's creation (400, not retried).
  const clients = testClients();
  const failures: string[] = [];
  const changes = queueChangeSink(clients.queue('Not_A_Queue'), {
    onNudgeError: (error, department) =>
      failures.push(`${department}: ${error instanceof Error ? error.name : 'unknown'}`),
  });
  await expect(
    changes.publish([{ department: 'Sales', employeeId: '000001', reason: 'created' }]),
  ).resolves.toBeUndefined();
  await changes.settled();
  // The cover and the nudge: each send that failed is reported.
  expect(failures).toEqual(['Sales: RestError', 'Sales: RestError']);
});
