/**
 * Packing items into entity group transactions (pure): in order, per partition, within the
 * operation budget (98 by default: 100 less the relocation fence's 2), an item never split.
 */
import { MAX_TRANSACTION_OPERATIONS } from '../../../../src/storage/tables/entityGroupTransaction';
import { packTransactions } from '../../../../src/storage/tables/transactionPacking';

interface Item {
  id: number;
  size: number;
  partition?: string;
}

const items = (sizes: number[], partition?: (i: number) => string): Item[] =>
  sizes.map((size, id) => ({ id, size, partition: partition?.(id) }));
const ids = (transactions: Item[][]) => transactions.map((t) => t.map((item) => item.id));
const bySize = { operations: (item: Item) => item.size };

describe('packTransactions', () => {
  it('fills each transaction up to 98 operations by default, in order', () => {
    const packed = packTransactions(items(Array<number>(100).fill(1)), bySize);
    expect(MAX_TRANSACTION_OPERATIONS).toBe(98);
    expect(packed.map((t) => t.length)).toEqual([98, 2]);
    expect(packed.flat().map((item) => item.id)).toEqual([...Array(100).keys()]);
  });

  it('starts the next transaction when an item would not fit, never splitting it', () => {
    expect(ids(packTransactions(items([40, 40, 30, 10, 60]), { ...bySize, budget: 100 }))).toEqual([
      [0, 1],
      [2, 3, 4],
    ]);
    expect(ids(packTransactions(items([50, 51]), { ...bySize, budget: 100 }))).toEqual([[0], [1]]);
  });

  it('gives an item over the budget by itself a transaction of its own', () => {
    expect(ids(packTransactions(items([5, 120, 5]), { ...bySize, budget: 100 }))).toEqual([
      [0],
      [1],
      [2],
    ]);
  });

  it('never mixes partitions, which come in the order of their first item', () => {
    const mixed = items([1, 1, 1, 1, 1], (i) => (i % 2 === 0 ? 'b' : 'a'));
    const packed = packTransactions(mixed, { ...bySize, partition: (item) => item.partition! });
    expect(ids(packed)).toEqual([
      [0, 2, 4],
      [1, 3],
    ]);
    for (const transaction of packed) {
      expect(new Set(transaction.map((item) => item.partition)).size).toBe(1);
    }
  });

  it('charges an operation shared with earlier items of the transaction once', () => {
    // 2 per item plus 1 per distinct name in the transaction: one name, 10 items = 21.
    const named = Array.from({ length: 12 }, (_, id) => ({ id, name: id < 10 ? 'x' : 'y' }));
    const packed = packTransactions(named, {
      operations: (item, group) => 2 + (group.some((g) => g.name === item.name) ? 0 : 1),
      budget: 21,
    });
    expect(packed.map((t) => t.length)).toEqual([10, 2]);
  });

  it('packs nothing for no items', () => {
    expect(packTransactions([], bySize)).toEqual([]);
  });
});
