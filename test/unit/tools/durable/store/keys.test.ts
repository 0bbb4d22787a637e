/** Names and keys of the local durable runtime: every builder has a parser, awkward input included. */
import {
  azureStorageHubResources,
  controlQueueName,
  episodeRowKey,
  eventRaisedInboxKey,
  executionRowKeyRange,
  historyTableName,
  inboxRowKey,
  instancesTableName,
  MAX_INSTANCE_ID_LENGTH,
  parseControlQueueName,
  parseHistoryRowKey,
  parseHistoryTableName,
  parseInboxKey,
  parseInstancesTableName,
  parseWorkItemQueueName,
  START_INBOX_KEY,
  subOrchestrationInstanceId,
  taskResultInboxKey,
  TERMINATE_INBOX_KEY,
  timerFiredInboxKey,
  validateInstanceId,
  validateTaskHubName,
  workItemQueueName,
} from '../../../../../tools/durable/store/keys';

const EXEC = '0123456789abcdef0123456789abcdef';

describe('durable task hub names', () => {
  it('builds and parses table and queue names from the hub', () => {
    expect(instancesTableName('DirectoryHub')).toBe('DirectoryHubInstancesLocal');
    expect(historyTableName('DirectoryHub')).toBe('DirectoryHubHistoryLocal');
    expect(controlQueueName('DirectoryHub')).toBe('directoryhub-local-control');
    expect(workItemQueueName('DirectoryHub')).toBe('directoryhub-local-workitems');
    expect(parseInstancesTableName('DirectoryHubInstancesLocal')).toBe('DirectoryHub');
    expect(parseHistoryTableName('DirectoryHubHistoryLocal')).toBe('DirectoryHub');
    expect(parseControlQueueName('directoryhub-local-control')).toBe('directoryhub');
    expect(parseWorkItemQueueName('directoryhub-local-workitems')).toBe('directoryhub');
  });

  it('lists the names DurableTask.AzureStorage gives a real hub', () => {
    const real = azureStorageHubResources('DirectoryHub');
    expect(real.tables).toEqual([
      'DirectoryHubInstances',
      'DirectoryHubHistory',
      'DirectoryHubPartitions',
    ]);
    expect(real.queues).toEqual(
      expect.arrayContaining([
        'directoryhub-workitems',
        'directoryhub-control-00',
        'directoryhub-control-15',
      ]),
    );
    expect(real.queues).toHaveLength(17);
    expect(real.containers).toEqual([
      'directoryhub-leases',
      'directoryhub-applease',
      'directoryhub-largemessages',
    ]);
  });

  it('never uses a name a real hub of any name uses (Azure names compare case-insensitively)', () => {
    // Every name a real hub can have, as patterns over all valid hub names.
    const realTable = /^[a-z][a-z0-9]{2,44}(instances|history|partitions)$/i;
    const realQueueOrContainer =
      /^[a-z][a-z0-9]{2,44}-(workitems|control-\d\d|leases|applease|largemessages)$/;
    const hubs = ['DirectoryHub', 'abc', 'HubInstances', 'x'.repeat(45), 'LocalHub', 'Hub1Local'];
    for (const hub of hubs) {
      for (const table of [instancesTableName(hub), historyTableName(hub)]) {
        expect(table).not.toMatch(realTable);
        expect(table.length).toBeLessThanOrEqual(63);
      }
      for (const queue of [controlQueueName(hub), workItemQueueName(hub)]) {
        expect(queue).not.toMatch(realQueueOrContainer);
        expect(queue.length).toBeLessThanOrEqual(63);
      }
      // And not the real names of this hub or of any hub listed.
      const realNames = hubs.flatMap((other) => {
        const r = azureStorageHubResources(other);
        return [...r.tables, ...r.queues, ...r.containers].map((n) => n.toLowerCase());
      });
      for (const local of [
        instancesTableName(hub),
        historyTableName(hub),
        controlQueueName(hub),
        workItemQueueName(hub),
      ]) {
        expect(realNames).not.toContain(local.toLowerCase());
      }
    }
  });

  it('rejects hub names Durable Functions rejects, and foreign names', () => {
    for (const bad of ['ab', 'my-hub', '1hub', 'x'.repeat(46), 'hub_name', '']) {
      expect(() => validateTaskHubName(bad)).toThrow(/Task hub name/);
    }
    expect(validateTaskHubName('a'.repeat(45))).toHaveLength(45);
    expect(parseInstancesTableName('Employees')).toBeUndefined();
    expect(parseInstancesTableName('InstancesLocal')).toBeUndefined();
    expect(parseInstancesTableName('DirectoryHubInstances')).toBeUndefined();
    expect(parseControlQueueName('Hub1-local-control')).toBeUndefined();
    expect(parseControlQueueName('hub1-control-00')).toBeUndefined();
    expect(parseWorkItemQueueName('hub1-workitems')).toBeUndefined();
  });
});

describe('durable instance ids', () => {
  it('accepts ids with spaces, colons, unicode and the maximum length', () => {
    for (const ok of ['order 42', 'parent:3', 'zoë-🚀', 'a'.repeat(MAX_INSTANCE_ID_LENGTH)]) {
      expect(validateInstanceId(ok)).toBe(ok);
    }
    expect(subOrchestrationInstanceId('parent', 7)).toBe('parent:7');
  });

  it('rejects ids that cannot be a PartitionKey or a URL segment', () => {
    for (const bad of [
      '',
      'a/b',
      'a\\b',
      'a#b',
      'a?b',
      'tab\there',
      'nul\u0000',
      'del\u007f',
      '@entity',
      'a'.repeat(MAX_INSTANCE_ID_LENGTH + 1),
    ]) {
      expect(() => validateInstanceId(bad)).toThrow();
    }
  });
});

describe('durable history row keys', () => {
  it('round-trips episode and inbox keys', () => {
    expect(episodeRowKey(EXEC, 12, 1)).toBe(`${EXEC}-E-0000000012-001`);
    expect(parseHistoryRowKey(episodeRowKey(EXEC, 12, 1))).toEqual({
      kind: 'episode',
      executionId: EXEC,
      episode: 12,
      part: 1,
    });
    const key = inboxRowKey(EXEC, taskResultInboxKey(3));
    expect(parseHistoryRowKey(key)).toEqual({
      kind: 'inbox',
      executionId: EXEC,
      inboxKey: 'task-00000003',
    });
    expect(parseHistoryRowKey('something else')).toBeUndefined();
  });

  it('sorts episodes in commit order and keeps executions apart', () => {
    const keys = [
      episodeRowKey(EXEC, 10, 0),
      episodeRowKey(EXEC, 9, 0),
      episodeRowKey(EXEC, 9, 1),
    ].sort();
    expect(keys.map((k) => parseHistoryRowKey(k))).toEqual([
      { kind: 'episode', executionId: EXEC, episode: 9, part: 0 },
      { kind: 'episode', executionId: EXEC, episode: 9, part: 1 },
      { kind: 'episode', executionId: EXEC, episode: 10, part: 0 },
    ]);
    const { from, to } = executionRowKeyRange(EXEC);
    const other = 'f'.repeat(32);
    for (const inside of [episodeRowKey(EXEC, 1, 0), inboxRowKey(EXEC, 'start')]) {
      expect(inside >= from && inside < to).toBe(true);
    }
    for (const outside of [episodeRowKey(other, 1, 0), inboxRowKey(other, 'start')]) {
      expect(outside >= from && outside < to).toBe(false);
    }
  });

  it('rejects malformed execution ids, inbox keys and out-of-range numbers', () => {
    expect(() => episodeRowKey('ABC', 1, 0)).toThrow(/Execution id/);
    expect(() => episodeRowKey(EXEC, -1, 0)).toThrow();
    expect(() => episodeRowKey(EXEC, 1, 1000)).toThrow();
    expect(() => inboxRowKey(EXEC, '')).toThrow();
    expect(() => inboxRowKey(EXEC, 'a/b')).toThrow();
  });

  it('round-trips every inbox key kind', () => {
    const id = 'abcdef0123456789abcdef0123456789';
    expect(parseInboxKey(START_INBOX_KEY)).toEqual({ kind: 'start' });
    expect(parseInboxKey(TERMINATE_INBOX_KEY)).toEqual({ kind: 'terminate' });
    expect(parseInboxKey(taskResultInboxKey(42))).toEqual({ kind: 'task', taskScheduledId: 42 });
    expect(parseInboxKey(timerFiredInboxKey(7))).toEqual({ kind: 'timer', timerId: 7 });
    expect(parseInboxKey(eventRaisedInboxKey(id))).toEqual({ kind: 'event', eventId: id });
    expect(parseInboxKey('task-1')).toBeUndefined();
    expect(() => eventRaisedInboxKey('not-hex')).toThrow();
  });
});
