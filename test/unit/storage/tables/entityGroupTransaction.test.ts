/**
 * Conditional operations inside an entity group transaction, on the wire: the `$batch` request
 * that leaves the client is captured by a fake HTTP client (nothing reaches storage), and the
 * changeset part of each conditioned delete or update carries `If-Match: <the caller's ETag>`.
 */
import { AzureNamedKeyCredential, TableClient } from '@azure/data-tables';
import {
  createHttpHeaders,
  type HttpClient,
  type PipelineRequest,
  type PipelineResponse,
} from '@azure/core-rest-pipeline';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../../../src/storage/tables/entityGroupTransaction';

const ACCOUNT = 'devstoreaccount1';
const KEY = Buffer.from('not a real key').toString('base64');
const ETAG_A = `W/"datetime'2026-01-02T03%3A04%3A05.0000001Z'"`;
const ETAG_B = `W/"datetime'2026-01-02T03%3A04%3A05.0000002Z'"`;

/** A successful batch answer with one `204` sub-response per operation. */
function batchAnswer(request: PipelineRequest, operations: number): PipelineResponse {
  const parts = Array.from(
    { length: operations },
    (_, i) =>
      `--changesetresponse_c\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\n` +
      `ETag: W/"datetime'2026-01-02T03%3A04%3A05.000000${i}Z'"\r\n\r\n`,
  );
  return {
    request,
    status: 202,
    headers: createHttpHeaders({ 'content-type': 'multipart/mixed; boundary=batchresponse_b' }),
    bodyAsText: `--batchresponse_b\r\n${parts.join('')}--changesetresponse_c--\r\n--batchresponse_b--\r\n`,
  };
}

/** A table client whose requests are recorded and answered locally. */
function capturingClient(): { table: TableClient; sent: PipelineRequest[] } {
  const sent: PipelineRequest[] = [];
  const httpClient: HttpClient = {
    async sendRequest(request) {
      sent.push(request);
      const body = String(request.body ?? '');
      return batchAnswer(request, body.split('application/http').length - 1);
    },
  };
  const table = new TableClient(
    `http://127.0.0.1:1/${ACCOUNT}`,
    'Employees',
    new AzureNamedKeyCredential(ACCOUNT, KEY),
    { httpClient, allowInsecureConnection: true, retryOptions: { maxRetries: 0 } },
  );
  return { table, sent };
}

/** The changeset part of the operation whose request line contains `needle`. */
function partOf(body: string, needle: string): string {
  const part = body.split('--changeset_').find((p) => p.includes(needle));
  if (!part) throw new Error(`No part contains ${needle}:\n${body}`);
  return part;
}

function ifMatchOf(part: string): string[] {
  return [...part.matchAll(/^If-Match: (.*)$/gim)].map((m) => m[1]!.trim());
}

it('a delete with an ETag goes out with If-Match: <that ETag>; a delete without one keeps *', async () => {
  const { table, sent } = capturingClient();
  await submitEntityGroupTransaction(table, [
    ['delete', { partitionKey: 'Sales', rowKey: 'empid_000001' }, { etag: ETAG_A }],
    ['delete', { partitionKey: 'Sales', rowKey: 'email_a@contoso.com' }],
  ]);
  expect(sent).toHaveLength(1);
  const request = sent[0]!;
  expect(request.method).toBe('POST');
  expect(request.url).toMatch(/\/\$batch$/);
  const body = String(request.body);
  expect(ifMatchOf(partOf(body, "RowKey='empid_000001'"))).toEqual([ETAG_A]);
  expect(ifMatchOf(partOf(body, "RowKey='email_a%40contoso.com'"))).toEqual(['*']);
  expect(Number(request.headers.get('content-length'))).toBe(Buffer.byteLength(body));
});

it('an update with an ETag carries it; an unconditional update and an insert do not', async () => {
  const { table, sent } = capturingClient();
  const actions: EntityGroupAction[] = [
    [
      'update',
      { partitionKey: 'Sales', rowKey: 'empid_000002', Age: 31 },
      'Replace',
      { etag: ETAG_B },
    ],
    ['update', { partitionKey: 'Sales', rowKey: 'department', Count: 3 }, 'Merge'],
    ['create', { partitionKey: 'Sales', rowKey: 'empid_000003' }],
    ['upsert', { partitionKey: 'Sales', rowKey: 'email_b@contoso.com' }, 'Replace'],
  ];
  const response = await submitEntityGroupTransaction(table, actions);
  const body = String(sent[0]!.body);
  expect(ifMatchOf(partOf(body, "RowKey='empid_000002'"))).toEqual([ETAG_B]);
  expect(ifMatchOf(partOf(body, "RowKey='department'"))).toEqual(['*']);
  expect(ifMatchOf(partOf(body, '"RowKey":"empid_000003"'))).toEqual([]);
  expect(ifMatchOf(partOf(body, "RowKey='email_b%40contoso.com'"))).toEqual([]);
  expect(response.subResponses).toHaveLength(4);
});

it('keys with quotes, spaces, commas, % and non-Latin letters still find their part', async () => {
  const { table, sent } = capturingClient();
  const partitionKey = "R&D o'Brien, Zürich 100%";
  const rowKey = "email_x'',RowKey='y@例え.jp";
  await submitEntityGroupTransaction(table, [
    ['delete', { partitionKey, rowKey }, { etag: ETAG_A }],
    ['delete', { partitionKey, rowKey: `${rowKey}2` }, { etag: ETAG_B }],
  ]);
  const parts = String(sent[0]!.body)
    .split('--changeset_')
    .filter((p) => p.includes('DELETE '));
  expect(parts.map(ifMatchOf)).toEqual([[ETAG_A], [ETAG_B]]);
});

it('concurrent transactions on one client each carry only their own ETags', async () => {
  const { table, sent } = capturingClient();
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      submitEntityGroupTransaction(table, [
        ['delete', { partitionKey: `P${i}`, rowKey: 'empid_000001' }, { etag: `"etag-${i}"` }],
      ]),
    ),
  );
  expect(sent).toHaveLength(20);
  for (const request of sent) {
    const body = String(request.body);
    const partition = /PartitionKey='P(\d+)'/.exec(body)![1];
    expect(ifMatchOf(partOf(body, 'DELETE '))).toEqual([`"etag-${partition}"`]);
  }
  const policies = table.pipeline.getOrderedPolicies().map((policy) => policy.name);
  expect(policies.filter((name) => name === 'entityGroupConditionsPolicy')).toHaveLength(1);
});

it('requests outside a conditioned transaction pass unchanged', async () => {
  const { table, sent } = capturingClient();
  await submitEntityGroupTransaction(table, [
    ['delete', { partitionKey: 'Sales', rowKey: 'empid_000001' }, { etag: ETAG_A }],
  ]);
  await submitEntityGroupTransaction(table, [
    ['delete', { partitionKey: 'Sales', rowKey: 'empid_000001' }],
  ]);
  expect(ifMatchOf(partOf(String(sent[1]!.body), 'DELETE '))).toEqual(['*']);
});

it('a condition that cannot be placed stops the transaction before anything is sent', async () => {
  const { table, sent } = capturingClient();
  const keys = { partitionKey: 'Sales', rowKey: 'empid_000001' };
  await expect(
    submitEntityGroupTransaction(table, [
      ['delete', keys, { etag: ETAG_A }],
      ['delete', keys, { etag: ETAG_B }],
    ]),
  ).rejects.toThrow(/Two conditions name the entity/);
  expect(sent).toHaveLength(0);
});

/** A client whose `$batch` bodies arrive at the conditions policy as `body(text)`, not as text. */
async function clientWithBodiesAs(
  body: (text: string) => PipelineRequest['body'],
): Promise<{ table: TableClient; sent: PipelineRequest[] }> {
  const client = capturingClient();
  // The first conditioned transaction adds the conditions policy; the next ones meet the change.
  await submitEntityGroupTransaction(client.table, [
    ['delete', { partitionKey: 'Sales', rowKey: 'empid_000009' }, { etag: ETAG_B }],
  ]);
  client.table.pipeline.addPolicy(
    {
      name: 'bodyNotText',
      sendRequest: (request, next) => {
        if (typeof request.body === 'string') request.body = body(request.body);
        return next(request);
      },
    },
    { phase: 'Serialize', beforePolicies: ['entityGroupConditionsPolicy'] },
  );
  return client;
}

it('places the conditions in a body that comes as bytes', async () => {
  const { table, sent } = await clientWithBodiesAs((text) => Buffer.from(text, 'utf8'));
  await submitEntityGroupTransaction(table, [
    ['delete', { partitionKey: 'Sales', rowKey: 'empid_000001' }, { etag: ETAG_A }],
  ]);
  expect(ifMatchOf(partOf(String(sent[1]!.body), 'DELETE '))).toEqual([ETAG_A]);
});

it('fails closed: a body it cannot read stops the transaction before anything is sent', async () => {
  const { table, sent } = await clientWithBodiesAs((text) => () => new Blob([text]).stream());
  await expect(
    submitEntityGroupTransaction(table, [
      ['delete', { partitionKey: 'Sales', rowKey: 'empid_000001' }, { etag: ETAG_A }],
    ]),
  ).rejects.toThrow(/not text: its ETag conditions cannot be placed, so nothing was sent/);
  expect(sent).toHaveLength(1); // only the first transaction
});
