/**
 * The one place the index storage is built from the configuration: the last-name shard size and
 * the announcement and nudge delays set in the environment reach the stores and the change queue
 * that every process part (HTTP directory, queue workers, orchestrations) uses.
 */
import { odata } from '@azure/data-tables';
import { loadConfig } from '../../../src/config';
import {
  configuredChangeQueue,
  configuredIndexStores,
} from '../../../src/indexing/configuredIndexing';
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
  ['0', 0],
  ['30', 1],
])(
  'announces with INDEX_ANNOUNCE_DELAY_SECONDS=%s (%d invisible messages)',
  async (delay, expected) => {
    const config = configWith({ INDEX_ANNOUNCE_DELAY_SECONDS: delay });
    const clients = testClients();
    const queue = clients.queue(config.queues.indexUpdates);
    await queue.createIfNotExists();
    try {
      await configuredChangeQueue(config, clients).announce([
        { department: 'Sales', employeeId: '000001' },
      ]);
      const properties = await queue.getProperties();
      expect(properties.approximateMessagesCount).toBe(expected);
      // Announcements are delayed: nothing is visible yet either way.
      expect((await queue.peekMessages()).peekedMessageItems).toEqual([]);
    } finally {
      await queue.delete();
    }
  },
);

it.each([
  ['0', 3],
  ['30', 2],
])(
  'nudges with INDEX_NUDGE_DELAY_SECONDS=%s: %d messages for three writes in two departments',
  async (delay, expected) => {
    const config = configWith({ INDEX_NUDGE_DELAY_SECONDS: delay });
    const clients = testClients();
    const queue = clients.queue(config.queues.indexUpdates);
    try {
      const changes = configuredChangeQueue(config, clients);
      expect(changes.outbox).toBe(true);
      for (const department of ['Sales', 'Sales', 'Ops']) {
        await changes.publish([{ department, employeeId: '000001', reason: 'updated' }]);
      }
      expect((await queue.getProperties()).approximateMessagesCount).toBe(expected);
      const visible = (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
      if (delay === '0') {
        expect(visible.map((m) => decodeQueueMessage(m.messageText))).toEqual([
          { v: 2, departments: ['Sales'] },
          { v: 2, departments: ['Sales'] },
          { v: 2, departments: ['Ops'] },
        ]);
      } else {
        expect(visible).toEqual([]); // delayed: the drain starts after every write above
      }
    } finally {
      await queue.delete();
    }
  },
);
