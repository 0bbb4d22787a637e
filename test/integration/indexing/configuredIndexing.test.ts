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
import { queueChangeSink } from '../../../src/indexing/queueChangeSink';
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
      queryOptions: { filter: odata`PartitionKey eq ${'lastname_jones'}` },
    })) {
      if (e.rowKey === '~fence') continue; // written with every change (lastNameStoreChange.test.ts)
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
  ['0', 2],
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
      // Three writes at once share one nudge, and each returns once it is stored.
      await Promise.all([write('Sales'), write('Sales'), write('Ops')]);
      // A write after that nudge is stored needs another, unless a delayed one is still invisible.
      await write('Sales');
      expect((await queue.getProperties()).approximateMessagesCount).toBe(expected);
      const visible = (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
      if (delay === '0') {
        expect(visible.map((m) => decodeQueueMessage(m.messageText))).toEqual([
          { v: 2, departments: ['Sales', 'Ops'] },
          { v: 2, departments: ['Sales'] },
        ]);
      } else {
        expect(visible).toEqual([]); // delayed: the drain starts after every write above
      }
    } finally {
      await queue.delete();
    }
  },
);

it.each([
  ['0', 'at once'],
  ['30', 'delayed'],
])(
  'with INDEX_NUDGE_DELAY_SECONDS=%s a write returns only once its nudge is stored (%s)',
  async (delay) => {
    const config = configWith({ INDEX_NUDGE_DELAY_SECONDS: delay });
    const queue = testClients().queue(config.queues.indexUpdates);
    try {
      const changes = configuredChangeQueue(config, testClients());
      await changes.publish([{ department: 'Sales', employeeId: '000001', reason: 'created' }]);
      // No settled(): the write's own promise is the guarantee (a process may stop right after).
      expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
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
  expect(failures).toHaveLength(1);
  expect(failures[0]).toMatch(/^Sales: /);
});
