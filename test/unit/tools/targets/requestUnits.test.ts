/**
 * What each storage request counts toward under Azure's targets: the account always, a table
 * partition by its entities (from the URL, the filter, an insert's or a batch's body), a queue by
 * its messages, a blob by its requests.
 */
import { requestUnits } from '../../../../tools/targets/requestUnits';
import { scaledTargets } from '../../../../tools/targets/azureTargets';

describe('request units', () => {
  test('table: point operations, partition queries, inserts; a scan counts the account only', () => {
    expect(
      requestUnits('table', 'GET', "/acct/Emp(PartitionKey='Sales',RowKey='empid_1')"),
    ).toEqual({
      account: 'acct',
      partition: { key: 'Emp/Sales', entities: 1 },
    });
    const query = `/acct/Emp()?$filter=${encodeURIComponent("PartitionKey eq 'O''Neil' and RowKey ge 'a'")}`;
    expect(requestUnits('table', 'GET', query).partition).toEqual({
      key: "Emp/O'Neil",
      entities: 1,
    });
    const insert = JSON.stringify({ PartitionKey: 'Sales', RowKey: 'x' });
    expect(requestUnits('table', 'POST', '/acct/Emp', insert).partition?.key).toBe('Emp/Sales');
    expect(requestUnits('table', 'GET', '/acct/Emp()')).toEqual({ account: 'acct' });
    expect(requestUnits('table', 'POST', '/acct/Tables', '{"TableName":"T"}')).toEqual({
      account: 'acct',
    });
  });

  test('a batch counts one entity per operation, in its one partition', () => {
    const body = [
      '--changeset_1',
      'POST http://127.0.0.1:1/acct/Emp HTTP/1.1',
      '',
      '{"PartitionKey":"Sales","RowKey":"a"}',
      '--changeset_1',
      "MERGE http://127.0.0.1:1/acct/Emp(PartitionKey='Sales',RowKey='b') HTTP/1.1",
      '',
      '{}',
      '--changeset_1',
      "DELETE http://127.0.0.1:1/acct/Emp(PartitionKey='Sales',RowKey='c') HTTP/1.1",
      '',
    ].join('\r\n');
    expect(requestUnits('table', 'POST', '/acct/$batch', body)).toEqual({
      account: 'acct',
      partition: { key: 'Emp/Sales', entities: 3 },
    });
  });

  test('queues by messages asked for; blobs by name; containers and listings the account only', () => {
    expect(requestUnits('queue', 'GET', '/acct/jobs/messages?numofmessages=16')).toEqual({
      account: 'acct',
      queue: { key: 'jobs', messages: 16 },
    });
    expect(requestUnits('queue', 'POST', '/acct/jobs/messages').queue?.messages).toBe(1);
    expect(requestUnits('queue', 'PUT', '/acct/jobs')).toEqual({ account: 'acct' });
    expect(requestUnits('blob', 'PUT', '/acct/photos/Sales/1/a.jpg?comp=block')).toEqual({
      account: 'acct',
      blob: { key: 'photos/Sales/1/a.jpg' },
    });
    expect(requestUnits('blob', 'GET', '/acct/photos?restype=container&comp=list')).toEqual({
      account: 'acct',
    });
  });

  test("Azure's targets divided by one factor, never below one per second", () => {
    expect(scaledTargets(100)).toEqual({
      accountRequests: 200,
      partitionEntities: 20,
      queueMessages: 20,
      blobRequests: 5,
    });
    expect(scaledTargets(10_000).blobRequests).toBe(1);
    expect(() => scaledTargets(0)).toThrow(RangeError);
  });
});
