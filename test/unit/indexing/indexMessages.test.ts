import {
  indexChangeBytes,
  indexChangesBudget,
  parseIndexUpdateMessage,
  type IndexChange,
} from '../../../src/indexing/indexMessages';
import { decodeMember, encodeMember } from '../../../src/indexing/lastNameStore';
import { CoalescingSender } from '../../../src/storage/coalescingSender';
import { orgLastNameShardRowKey, parseOrgLastNameShardRowKey } from '../../../src/storage/keys';
import { encodeQueueMessage } from '../../../src/storage/queue';

it('packs 1,000 import changes into few messages, each under the limit, order kept', async () => {
  const changes: IndexChange[] = Array.from({ length: 1000 }, (_, i) => ({
    department: 'Sales',
    employeeId: String(i).padStart(6, '0'),
    reason: 'imported' as const,
  }));
  const messages: { v: 1; changes: IndexChange[] }[] = [];
  const sender = new CoalescingSender<IndexChange>({
    send: async (items) => {
      messages.push({ v: 1, changes: [...items] });
    },
    itemBytes: indexChangeBytes,
    budgetBytes: indexChangesBudget(8 * 1024),
    maxInFlight: 1,
  });
  await sender.addAll(changes);
  expect(messages.length).toBeGreaterThan(1);
  expect(messages.length).toBeLessThan(30);
  for (const m of messages)
    expect(Buffer.byteLength(encodeQueueMessage(m))).toBeLessThanOrEqual(8 * 1024);
  expect(messages.flatMap((m) => m.changes)).toEqual(changes);
});

it('refuses payloads that are not index messages', () => {
  expect(() =>
    parseIndexUpdateMessage({ v: 1, changes: [{ department: 'a/b', employeeId: '1' }] }),
  ).toThrow(/Not an index-updates message/);
});

it('round-trips members and shard keys, and rejects awkward ones', () => {
  expect(decodeMember(encodeMember({ department: 'R and D', employeeId: '000001' }))).toEqual({
    department: 'R and D',
    employeeId: '000001',
  });
  expect(decodeMember('Sales/12')).toBeUndefined();
  expect(parseOrgLastNameShardRowKey(orgLastNameShardRowKey(7))).toBe(7);
  expect(() => orgLastNameShardRowKey(1000)).toThrow();
  expect(parseOrgLastNameShardRowKey('part_7')).toBeUndefined();
});
