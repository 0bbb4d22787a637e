import { packIndexChanges, parseIndexUpdateMessage } from '../../../src/indexing/indexMessages';
import { decodeMember, encodeMember } from '../../../src/indexing/lastNameStore';
import { orgLastNameShardRowKey, parseOrgLastNameShardRowKey } from '../../../src/storage/keys';
import { encodeQueueMessage } from '../../../src/storage/queue';

it('packs 1,000 import changes into few messages, each under the limit, order kept', () => {
  const changes = Array.from({ length: 1000 }, (_, i) => ({
    department: 'Sales',
    employeeId: String(i).padStart(6, '0'),
    reason: 'imported' as const,
  }));
  const messages = packIndexChanges(changes, 8 * 1024);
  expect(messages.length).toBeGreaterThan(1);
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
