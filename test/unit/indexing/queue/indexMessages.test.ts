import {
  nudgeBudget,
  nudgeDepartmentBytes,
  parseIndexQueueMessage,
  parseIndexUpdateMessage,
} from '../../../../src/indexing/queue/indexMessages';
import { decodeMember, encodeMember } from '../../../../src/indexing/lastNames/lastNameStore';
import { CoalescingSender } from '../../../../src/storage/coalescingSender';
import {
  orgLastNameShardRowKey,
  parseOrgLastNameRowKey,
} from '../../../../src/storage/keys/tables/employeeIndex';
import { encodeQueueMessage } from '../../../../src/storage/queue';

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
  expect(parseOrgLastNameRowKey(orgLastNameShardRowKey('Jones', 7))).toEqual({
    lastName: 'jones',
    shard: 7,
  });
  expect(() => orgLastNameShardRowKey('jones', 1000)).toThrow();
  expect(parseOrgLastNameRowKey('jones%~part_7')).toBeUndefined();
  expect(parseOrgLastNameRowKey('part_007')).toBeUndefined();
});

describe('outbox nudges', () => {
  it('read a nudge, and still read v1 change batches', () => {
    expect(parseIndexQueueMessage({ v: 2, departments: ['Sales', 'R and D'] })).toEqual({
      v: 2,
      departments: ['Sales', 'R and D'],
    });
    const v1 = {
      v: 1,
      changes: [{ department: 'Sales', employeeId: '000001', reason: 'created' }],
    };
    expect(parseIndexQueueMessage(v1)).toEqual(v1);
  });

  it('read the lease holder an expiry nudge names, and refuse an empty or oversized one', () => {
    expect(parseIndexQueueMessage({ v: 2, departments: ['Sales'], holder: 'h-1' })).toEqual({
      v: 2,
      departments: ['Sales'],
      holder: 'h-1',
    });
    expect(() => parseIndexQueueMessage({ v: 2, departments: ['Sales'], holder: '' })).toThrow(
      /Not an outbox nudge/,
    );
    expect(() =>
      parseIndexQueueMessage({ v: 2, departments: ['Sales'], holder: 'x'.repeat(65) }),
    ).toThrow(/Not an outbox nudge/);
  });

  it("read a cover's `before`, and refuse one that is not a time", () => {
    expect(
      parseIndexQueueMessage({ v: 2, departments: ['Sales'], before: 1_700_000_000_000 }),
    ).toEqual({ v: 2, departments: ['Sales'], before: 1_700_000_000_000 });
    for (const before of [-1, 1.5, '1700000000000']) {
      expect(() => parseIndexQueueMessage({ v: 2, departments: ['Sales'], before })).toThrow(
        /Not an outbox nudge/,
      );
    }
  });

  it.each([
    { v: 2 },
    { v: 2, departments: [] },
    { v: 2, departments: ['Sales/../x'] },
    { v: 2, departments: [42] },
    { v: 3, departments: ['Sales'] },
    null,
    'Sales',
  ])('refuse %p', (payload) => {
    expect(() => parseIndexQueueMessage(payload)).toThrow(/Not an/);
  });

  it('fit thousands of department names into messages under the limit', async () => {
    const departments = Array.from({ length: 3000 }, (_, i) => `Department ${'x'.repeat(40)}${i}`);
    const messages: string[][] = [];
    const sender = new CoalescingSender<string>({
      send: async (items) => {
        messages.push([...items]);
      },
      itemBytes: nudgeDepartmentBytes,
      budgetBytes: nudgeBudget(),
      maxInFlight: 1,
    });
    await sender.addAll(departments);
    expect(messages.flat()).toEqual(departments);
    for (const m of messages) {
      const encoded = encodeQueueMessage({ v: 2, departments: m });
      expect(Buffer.byteLength(encoded)).toBeLessThanOrEqual(64 * 1024);
    }
  });
});
