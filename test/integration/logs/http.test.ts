/**
 * The HTTP and queue-trigger adapters of the log pipeline, driven directly (no host): statuses,
 * error bodies, nothing stored for a refused batch, and POST → trigger → GET.
 */
import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import { resetConfig } from '../../../src/config';
import { resetServices } from '../../../functions/shared/services';
import { logStagingBlobName } from '../../../src/storage/keys/blobs/logBlobs';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { adminPrincipal, PRINCIPAL_HEADER, telemetryPrincipal } from '../../support/principals';
import { testClients, uniqueName } from '../../support/storage';
import { entriesFrom, queueLength } from './logKit';

const queueName = uniqueName('logq');
const containerName = uniqueName('logs');
process.env.LOG_QUEUE = queueName;
process.env.LOGS_CONTAINER = containerName;
process.env.LOG_MAX_BATCH_ENTRIES = '50';
process.env.LOG_MAX_BATCH_BYTES = String(256 * 1024);
resetConfig();
resetServices();

type Handler = (request: HttpRequest, context: InvocationContext) => Promise<HttpResponseInit>;
let postLogs: Handler;
let getLogs: Handler;
let flushLogBatches: (entry: unknown, context: InvocationContext) => Promise<void>;

const queue = testClients().queue(queueName);
const container = testClients().container(containerName);
const context = (): InvocationContext => new InvocationContext({ logHandler: () => undefined });

function post(body: unknown): Promise<HttpResponseInit> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return postLogs(
    new HttpRequest({
      method: 'POST',
      url: 'http://localhost/api/logs',
      body: { string: text },
      headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: telemetryPrincipal },
    }),
    context(),
  );
}

function get(query: Record<string, string>): Promise<HttpResponseInit> {
  return getLogs(
    new HttpRequest({
      method: 'GET',
      url: 'http://localhost/api/logs',
      query,
      headers: { [PRINCIPAL_HEADER]: adminPrincipal },
    }),
    context(),
  );
}

/** Delivers the first queued message to the trigger, as the host would. */
async function triggerOnce(): Promise<void> {
  const [message] = (await queue.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 60 }))
    .receivedMessageItems;
  if (!message) throw new Error('no message to trigger on');
  await flushLogBatches(
    decodeQueueMessage(message.messageText),
    new InvocationContext({
      logHandler: () => undefined,
      triggerMetadata: {
        dequeueCount: message.dequeueCount,
        nextVisibleTime: message.nextVisibleOn.toISOString(),
      },
    }),
  );
  await queue.deleteMessage(message.messageId, message.popReceipt);
}

beforeAll(async () => {
  // Outside a Functions host the library registers nothing and says so; the handlers still run.
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  ({ postLogs, getLogs } = await import('../../../functions/logs'));
  ({ flushLogBatches } = await import('../../../functions/logBatches'));
  warn.mockRestore();
  await queue.createIfNotExists();
});

describe('POST /logs', () => {
  it('rejects a batch with one bad entry with 400 naming the entry and field, and enqueues nothing', async () => {
    const before = await queueLength(queue);
    const entries = entriesFrom('ok', '2026-11-22T15:00:00Z', 3);
    entries[2] = { ...entries[2]!, level: 'Loud' };
    const response = await post({ source: 'web', entries });
    expect(response.status).toBe(400);
    expect(response.jsonBody).toEqual({
      error: {
        code: 'InvalidLogEntry',
        message: expect.stringContaining('body.entries[2].level'),
        target: 'body.entries[2].level',
        details: [
          { field: 'body.entries[2].level', problem: expect.stringMatching(/^must be one of/) },
        ],
      },
    });
    expect(await queueLength(queue)).toBe(before);
  });

  it('answers 413 for more entries than allowed and for a body over the byte limit', async () => {
    const before = await queueLength(queue);
    const tooMany = await post({
      source: 'web',
      entries: entriesFrom('x', '2026-11-22T15:00:00Z', 51),
    });
    expect(tooMany.status).toBe(413);
    expect((tooMany.jsonBody as { error: { code: string } }).error.code).toBe('TooManyLogEntries');
    const tooBig = await post({
      source: 'web',
      entries: [{ at: '2026-11-22T15:00:00Z', level: 'Error', message: 'x'.repeat(300 * 1024) }],
    });
    expect(tooBig.status).toBe(413);
    expect(await queueLength(queue)).toBe(before);
  });

  it('answers 400 for a body that is not JSON', async () => {
    expect((await post('{"source": "web", ')).status).toBe(400);
  });

  it('accepts a large batch with 202 as one pointer message to its staging blob', async () => {
    await queue.clearMessages();
    const big = entriesFrom('big', '2026-11-22T15:00:00Z', 50).map((entry) => ({
      ...entry,
      message: `${entry.message} ${'ø'.repeat(1500)}`,
    }));
    const response = await post({ source: 'web', entries: big });
    expect(response.status).toBe(202);
    const accepted = response.jsonBody as { batchId: string };
    expect(accepted).toMatchObject({ entries: 50, messages: 1, staged: true });
    const peeked = await queue.peekMessages({ numberOfMessages: 32 });
    expect(peeked.peekedMessageItems).toHaveLength(1);
    const stagingBlob = logStagingBlobName(accepted.batchId);
    expect(decodeQueueMessage(peeked.peekedMessageItems[0]!.messageText)).toEqual({
      v: 1,
      batchId: accepted.batchId,
      stagingBlob,
    });
    expect(await container.getBlockBlobClient(stagingBlob).exists()).toBe(true);

    await triggerOnce();
    expect(await queueLength(queue)).toBe(0);
    expect(await container.getBlockBlobClient(stagingBlob).exists()).toBe(false);
    const found = await get({
      source: 'web',
      from: '2026-11-22T15:00:00Z',
      to: '2026-11-22T16:00:00Z',
    });
    const items = (found.jsonBody as { items: { message: string }[] }).items;
    expect(items.map((i) => i.message)).toEqual(big.map((e) => e.message));
  });
});

describe('GET /logs', () => {
  it.each([
    [{ source: 'web', from: '2026-11-22T15:00:00Z' }, 'query.to'],
    [{ source: 'web', from: '2026-11-22T15:06:00Z', to: '2026-11-22T15:04:00Z' }, 'query.to'],
    [{ source: 'web', from: 'noon', to: '2026-11-22T15:04:00Z' }, 'query.from'],
    [{ from: '2026-11-22T15:00:00Z', to: '2026-11-22T15:04:00Z' }, 'query.source'],
    [
      {
        source: 'web',
        from: '2026-11-22T15:00:00Z',
        to: '2026-11-22T15:04:00Z',
        level: 'Error,Fatal',
      },
      'query.level',
    ],
    ...['0', '5001', '1.5', 'ten'].map((pageSize): [Record<string, string>, string] => [
      { source: 'web', from: '2026-11-22T15:00:00Z', to: '2026-11-22T15:04:00Z', pageSize },
      'query.pageSize',
    ]),
  ])('answers 400 for %j', async (query, target) => {
    const response = await get(query as Record<string, string>);
    expect(response.status).toBe(400);
    expect((response.jsonBody as { error: { target: string } }).error.target).toBe(target);
  });

  it('accepts a window of any width and the page size bounds 1 and 5000', async () => {
    for (const pageSize of ['1', '5000']) {
      const response = await get({
        source: 'nobody',
        from: '2026-11-01T00:00:00Z',
        to: '2026-11-01T06:00:00Z',
        pageSize,
      });
      expect(response.status).toBe(200);
      expect(response.jsonBody).toEqual({ items: [], continuationToken: null });
    }
    // A week: more hour prefixes than one page lists; read in (empty) pages.
    const week = { source: 'nobody', from: '2026-11-01T00:00:00Z', to: '2026-11-08T00:00:00Z' };
    let pages = 0;
    let token: string | null = null;
    do {
      const response = await get(token === null ? week : { ...week, continuationToken: token });
      expect(response.status).toBe(200);
      token = (response.jsonBody as { continuationToken: string | null }).continuationToken;
      pages++;
    } while (token !== null);
    expect(pages).toBe(Math.ceil((7 * 24) / 48));
  });
});

describe('POST /logs → queue trigger → GET /logs', () => {
  it('makes accepted entries queryable, multi-line and non-ASCII text intact', async () => {
    await queue.clearMessages();
    const tricky = 'Zeile 1; ünïcødé 🚀\r\nline 2 \\ end';
    for (let b = 0; b < 5; b++) {
      const entries = entriesFrom(`e2e${b}`, `2026-11-22T15:0${b}:00Z`, 4, 'Error');
      entries[0] = {
        ...entries[0]!,
        message: `${tricky} #${b}`,
        user: { id: b, name: 'Ægir; "x"' },
      };
      expect((await post({ source: 'checkout', entries })).status).toBe(202);
    }
    // One trigger invocation drains and writes the other four messages too.
    await triggerOnce();
    expect(await queueLength(queue)).toBe(0);

    const query = {
      source: 'checkout',
      from: '2026-11-22T15:00:00Z',
      to: '2026-11-22T16:00:00Z',
      level: 'Error,Critical',
    };
    const response = await get(query);
    expect(response.status).toBe(200);
    const page = response.jsonBody as { items: Record<string, unknown>[] };
    expect(page).toEqual({ items: expect.any(Array), continuationToken: null });
    const items = page.items;
    expect(items).toHaveLength(20);
    expect(items[0]).toEqual({
      at: '2026-11-22T15:00:00.000Z',
      level: 'Error',
      message: `${tricky} #0`,
      user: { id: 0, name: 'Ægir; "x"' },
    });
    const times = items.map((i) => Date.parse(i.at as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // The same in pages of 7, with the token each page hands out.
    type Page = { items: Record<string, unknown>[]; continuationToken: string | null };
    const paged: Record<string, unknown>[] = [];
    const tokens: string[] = [];
    let next: Page = (await get({ ...query, pageSize: '7' })).jsonBody as Page;
    for (;;) {
      paged.push(...next.items);
      if (next.continuationToken === null) break;
      tokens.push(next.continuationToken);
      next = (await get({ ...query, pageSize: '7', continuationToken: next.continuationToken }))
        .jsonBody as Page;
    }
    expect(paged).toEqual(items);
    expect(tokens).toHaveLength(2);

    // A token is bound to its query: another level filter, window or source, or a tampered
    // token, is refused with 400 before anything is read.
    const token = tokens[0]!;
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString()) as { rk: string };
    const tampered = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(token, 'base64url').toString()),
        rk: `1${decoded.rk}`,
      }),
    ).toString('base64url');
    for (const bad of [
      { ...query, level: 'Error', continuationToken: token },
      { ...query, to: '2026-11-22T17:00:00Z', continuationToken: token },
      { ...query, source: 'web', continuationToken: token },
      { ...query, continuationToken: `${token.slice(0, -3)}abc` },
    ]) {
      const refused = await get(bad);
      expect(refused.status).toBe(400);
      expect((refused.jsonBody as { error: { code: string } }).error.code).toBe(
        'InvalidContinuationToken',
      );
    }
    // A well-formed token of this query moved to another offset is still this query's position.
    expect((await get({ ...query, continuationToken: tampered })).status).toBe(200);
  });
});
