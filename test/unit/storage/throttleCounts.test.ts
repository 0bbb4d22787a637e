/**
 * Throttles counted per account and scope (src/storage/throttleCounts.ts): which table partition,
 * queue or container a request was for, read from its URL (Azure's host style and Azurite's path
 * style) or a batch's body; only ServerBusy-like answers counted, each try once; the snapshot
 * lists accounts and their busiest scopes.
 */
import { createHttpHeaders, createPipelineRequest } from '@azure/core-rest-pipeline';
import {
  isThrottleAnswer,
  MAX_SCOPES,
  requestScope,
  SCOPES_SHOWN,
  ThrottleCounts,
  throttleCountingPolicy,
  type ThrottleEvent,
} from '../../../src/storage/throttleCounts';

describe('requestScope', () => {
  it("reads a point operation's table and partition (path style, quotes doubled)", () => {
    // As the Tables SDK sends it: the key escaped, then the path.
    const url = "http://127.0.0.1:10002/acct/Employees(PartitionKey='D%2520O''Brien',RowKey='e1')";
    expect(requestScope('table', 'acct', { url })).toEqual({
      resource: 'Employees',
      partitionKey: "D O'Brien",
    });
  });

  it("reads a partition query's filter (host style)", () => {
    const filter = encodeURIComponent("PartitionKey eq 'Sales' and RowKey ge 'a'");
    const url = `https://acct.table.core.windows.net/Employees()?$filter=${filter}`;
    expect(requestScope('table', 'acct', { url })).toEqual({
      resource: 'Employees',
      partitionKey: 'Sales',
    });
  });

  it("reads a batch's partition from its body, and none from a query without one", () => {
    const body =
      '--batch\r\nPOST http://h/acct/Employees HTTP/1.1\r\n\r\n{"PartitionKey":"A \\"q\\"","RowKey":"1"}\r\n';
    expect(requestScope('table', 'acct', { url: 'http://h/acct/$batch', body })).toEqual({
      resource: 'Employees',
      partitionKey: 'A "q"',
    });
    expect(requestScope('table', 'acct', { url: 'http://h/acct/Tables' })).toEqual({
      resource: 'Tables',
    });
  });

  it('names the queue or the container', () => {
    expect(requestScope('queue', 'acct', { url: 'http://h/acct/log-batches/messages' })).toEqual({
      resource: 'log-batches',
    });
    const blob = 'https://acct.blob.core.windows.net/photos/a/b.png?sv=1';
    expect(requestScope('blob', 'acct', { url: blob })).toEqual({ resource: 'photos' });
  });
});

describe('isThrottleAnswer', () => {
  it('is true for 503, ServerBusy and OperationTimedOut, false for other answers', () => {
    expect(isThrottleAnswer(503, 'ServerBusy')).toBe(true);
    expect(isThrottleAnswer(503, undefined)).toBe(true);
    expect(isThrottleAnswer(500, 'OperationTimedOut')).toBe(true);
    expect(isThrottleAnswer(500, 'InternalError')).toBe(false);
    expect(isThrottleAnswer(412, 'UpdateConditionNotSatisfied')).toBe(false);
    expect(isThrottleAnswer(409, 'EntityAlreadyExists')).toBe(false);
  });
});

const event = (over: Partial<ThrottleEvent> = {}): ThrottleEvent => ({
  account: 'home',
  service: 'table',
  resource: 'Employees',
  partitionKey: 'Sales',
  code: 'ServerBusy',
  ...over,
});

describe('ThrottleCounts', () => {
  it('counts per account and scope, busiest first', () => {
    const counts = new ThrottleCounts(new Date('2026-12-07T00:00:00Z'));
    counts.record(event());
    counts.record(event());
    counts.record(event({ partitionKey: 'HR' }));
    counts.record(
      event({ account: 'data1', service: 'queue', resource: 'q', partitionKey: undefined }),
    );
    expect(counts.snapshot()).toEqual({
      since: new Date('2026-12-07T00:00:00Z'),
      throttled: 4,
      accounts: [
        {
          account: 'home',
          throttled: 3,
          scopes: [
            { service: 'table', resource: 'Employees', partitionKey: 'Sales', throttled: 2 },
            { service: 'table', resource: 'Employees', partitionKey: 'HR', throttled: 1 },
          ],
        },
        {
          account: 'data1',
          throttled: 1,
          scopes: [{ service: 'queue', resource: 'q', throttled: 1 }],
        },
      ],
    });
  });

  it('keeps a bounded number of scopes and lists the busiest few, while the totals stay whole', () => {
    const counts = new ThrottleCounts();
    for (let i = 0; i < MAX_SCOPES + 50; i++) counts.record(event({ partitionKey: `p${i}` }));
    const [home] = counts.snapshot().accounts;
    expect(home!.throttled).toBe(MAX_SCOPES + 50);
    expect(home!.scopes).toHaveLength(SCOPES_SHOWN);
  });
});

describe('throttleCountingPolicy', () => {
  it('reports each throttled try with its scope and code, and passes every answer on', async () => {
    const seen: ThrottleEvent[] = [];
    const policy = throttleCountingPolicy('table', 'acct', (e) => seen.push(e));
    const request = createPipelineRequest({
      url: "http://127.0.0.1:10002/acct/Employees(PartitionKey='Sales',RowKey='x')",
    });
    const answer = (status: number, code?: string) => ({
      request,
      status,
      headers: createHttpHeaders(code ? { 'x-ms-error-code': code } : {}),
    });
    for (const [status, code] of [
      [503, 'ServerBusy'],
      [200],
      [412, 'UpdateConditionNotSatisfied'],
    ] as const) {
      const response = await policy.sendRequest(request, () =>
        Promise.resolve(answer(status, code)),
      );
      expect(response.status).toBe(status);
    }
    expect(seen).toEqual([event({ account: 'acct', code: 'ServerBusy' })]);
  });

  it('never fails a request when the sink throws', async () => {
    const policy = throttleCountingPolicy('queue', 'acct', () => {
      throw new RangeError('sink broke');
    });
    const request = createPipelineRequest({ url: 'http://h/acct/q/messages' });
    const response = await policy.sendRequest(request, () =>
      Promise.resolve({ request, status: 503, headers: createHttpHeaders() }),
    );
    expect(response.status).toBe(503);
  });
});
