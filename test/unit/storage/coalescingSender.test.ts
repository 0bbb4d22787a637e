import { CoalescingSender } from '../../../src/storage/coalescingSender';

/** A send whose completion the test controls. */
function controlledSends() {
  const sent: string[][] = [];
  const pending: { items: string[]; settle: (error?: Error) => void }[] = [];
  let inFlight = 0;
  let maxSeen = 0;
  const send = (items: readonly string[]): Promise<void> => {
    inFlight++;
    maxSeen = Math.max(maxSeen, inFlight);
    sent.push([...items]);
    return new Promise<void>((resolve, reject) => {
      pending.push({
        items: [...items],
        settle: (error) => {
          inFlight--;
          if (error) reject(error);
          else resolve();
        },
      });
    });
  };
  return { send, sent, pending, maxInFlight: () => maxSeen };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

it('sends a lone item at once, in a message of its own', async () => {
  const sends = controlledSends();
  const sender = new CoalescingSender<string>({
    send: sends.send,
    itemBytes: (item) => item.length,
    budgetBytes: 100,
  });
  const done = sender.add('a');
  await tick();
  expect(sends.sent).toEqual([['a']]);
  sends.pending[0]!.settle();
  await expect(done).resolves.toBeUndefined();
});

it('packs the items that arrive while a send is in flight into one message, in order', async () => {
  const sends = controlledSends();
  const sender = new CoalescingSender<string>({
    send: sends.send,
    itemBytes: (item) => item.length,
    budgetBytes: 100,
    maxInFlight: 1,
  });
  const first = sender.add('first');
  await tick();
  const later = ['b', 'c', 'd'].map((item) => sender.add(item));
  await tick();
  // Still one send: the slot is taken, so b, c and d wait together.
  expect(sends.sent).toEqual([['first']]);
  sends.pending[0]!.settle();
  await first;
  await tick();
  expect(sends.sent).toEqual([['first'], ['b', 'c', 'd']]);
  sends.pending[1]!.settle();
  await Promise.all(later);
  expect(sender.messagesSent).toBe(2);
});

it('starts a new message when the next item would pass the byte budget; an oversized item travels alone', async () => {
  const sends = controlledSends();
  const sender = new CoalescingSender<string>({
    send: sends.send,
    itemBytes: (item) => item.length,
    budgetBytes: 10,
    maxInFlight: 1,
  });
  const all = [
    sender.add('aaaa'),
    sender.add('bbbb'),
    sender.add('cccc'),
    sender.add('x'.repeat(25)),
    sender.add('d'),
  ];
  for (let i = 0; i < 4; i++) {
    await tick();
    sends.pending[i]!.settle();
  }
  await Promise.all(all);
  expect(sends.sent).toEqual([['aaaa', 'bbbb'], ['cccc'], ['x'.repeat(25)], ['d']]);
});

it('rejects exactly the callers whose message failed; the others are stored', async () => {
  const sends = controlledSends();
  const sender = new CoalescingSender<string>({
    send: sends.send,
    itemBytes: () => 1,
    budgetBytes: 2,
    maxInFlight: 1,
  });
  const outcomes = ['a', 'b', 'c', 'd'].map((item) =>
    sender.add(item).then(
      () => `${item}:stored`,
      (error: Error) => `${item}:${error.message}`,
    ),
  );
  await tick();
  sends.pending[0]!.settle(new Error('ServerBusy'));
  await tick();
  sends.pending[1]!.settle();
  expect(await Promise.all(outcomes)).toEqual([
    'a:ServerBusy',
    'b:ServerBusy',
    'c:stored',
    'd:stored',
  ]);
});

it('never has more than maxInFlight sends running, and drains everything', async () => {
  let inFlight = 0;
  let maxSeen = 0;
  const messages: number[][] = [];
  const sender = new CoalescingSender<number>({
    send: async (items) => {
      inFlight++;
      maxSeen = Math.max(maxSeen, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      messages.push([...items]);
      inFlight--;
    },
    itemBytes: () => 1,
    budgetBytes: 8,
    maxInFlight: 3,
  });
  const items = Array.from({ length: 200 }, (_, i) => i);
  await Promise.all(
    items.map(async (item) => {
      await new Promise((resolve) => setTimeout(resolve, item % 7));
      await sender.add(item);
    }),
  );
  expect(maxSeen).toBeLessThanOrEqual(3);
  expect(messages.flat().sort((a, b) => a - b)).toEqual(items);
  expect(messages.every((m) => m.length <= 8)).toBe(true);
  expect(messages.length).toBeLessThan(200);
});

it('refuses a send slot count that is not a positive integer', () => {
  expect(
    () =>
      new CoalescingSender<string>({
        send: async () => undefined,
        itemBytes: () => 1,
        budgetBytes: 1,
        maxInFlight: 0,
      }),
  ).toThrow(/maxInFlight/);
});
