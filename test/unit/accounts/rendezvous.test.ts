/**
 * Weighted rendezvous hashing (src/accounts/rendezvous.ts): each key goes to one candidate, in
 * proportion to the weights, and adding a candidate moves only the keys it now wins.
 */
import { rendezvousPick } from '../../../src/accounts/rendezvous';
import { pinnedPartition } from '../../../src/accounts/routing/routedTable';
import { changeMarkerKeys, readChangeMarkerKeys } from '../../../src/accounts/partitionFence';

const keys = Array.from({ length: 20_000 }, (_, i) => `key${i}`);
const share = (picks: string[], name: string) =>
  picks.filter((p) => p === name).length / picks.length;

it('spreads keys in proportion to the weights, never to a weight of 0', () => {
  const accounts = [
    { name: 'home', weight: 0 },
    { name: 'DATA1', weight: 1 },
    { name: 'DATA2', weight: 3 },
  ];
  const picks = keys.map((key) => rendezvousPick(key, accounts).name);
  expect(share(picks, 'home')).toBe(0);
  expect(share(picks, 'DATA1')).toBeCloseTo(0.25, 1);
  expect(share(picks, 'DATA2')).toBeCloseTo(0.75, 1);
});

it('moves only the keys a new account wins when one is added', () => {
  const two = [
    { name: 'DATA1', weight: 1 },
    { name: 'DATA2', weight: 1 },
  ];
  const three = [...two, { name: 'DATA3', weight: 1 }];
  const before = keys.map((key) => rendezvousPick(key, two).name);
  const after = keys.map((key) => rendezvousPick(key, three).name);
  const moved = after.filter((name, i) => name !== before[i]);
  expect(moved.every((name) => name === 'DATA3')).toBe(true);
  expect(moved.length / keys.length).toBeCloseTo(1 / 3, 1);
});

it('refuses candidates that all weigh 0', () => {
  expect(() => rendezvousPick('k', [{ name: 'home', weight: 0 }])).toThrow(RangeError);
});

it('routes a query by the partition its filter names first, quotes unescaped', () => {
  expect(pinnedPartition("PartitionKey eq 'O''Brien Ltd' and RowKey ge 'a'")).toBe("O'Brien Ltd");
  expect(pinnedPartition("RowKey ge 'a' and RowKey lt 'b'")).toBeUndefined();
  expect(pinnedPartition(undefined)).toBeUndefined();
});

it('keeps a change marker’s keys in properties of at most 30,000 characters', () => {
  const rowKeys = Array.from({ length: 98 }, (_, i) => `email_${'x'.repeat(900)}${i}`);
  const properties = changeMarkerKeys(rowKeys);
  expect(Object.keys(properties).length).toBeGreaterThan(2);
  for (const value of Object.values(properties)) expect(value.length).toBeLessThanOrEqual(30_000);
  expect(readChangeMarkerKeys(properties)).toEqual(rowKeys);
});
