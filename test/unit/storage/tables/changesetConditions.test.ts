/**
 * Placing `If-Match` on chosen operations of a `$batch` body (pure string work): the right part
 * gets the ETag, every other part is left as it was, and a condition that cannot be placed stops
 * the request instead of letting an unconditional delete through.
 */
import { entityKeysOfUrl, withIfMatch } from '../../../../src/storage/tables/changesetConditions';

const URL_BASE = 'http://127.0.0.1:10002/devstoreaccount1/Employees';

function part(requestLine: string, headers: string[], body = ''): string {
  return [
    '--changeset_c',
    'content-type: application/http',
    'content-transfer-encoding: binary',
    '',
    requestLine,
    ...headers,
    '',
    body,
  ].join('\r\n');
}

function batch(...parts: string[]): string {
  return [
    '--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n',
    ...parts,
    '--changeset_c--',
    '--batch_b--',
    '',
  ].join('\r\n');
}

const deleteA = part(`DELETE ${URL_BASE}(PartitionKey='Sales',RowKey='empid_000001') HTTP/1.1`, [
  'Accept: application/json;odata=minimalmetadata',
  'DataServiceVersion: 3.0',
  'If-Match: *',
]);
const insertB = part(
  `POST ${URL_BASE} HTTP/1.1`,
  ['Content-Type: application/json;odata=nometadata', 'DataServiceVersion: 3.0'],
  `{"PartitionKey":"Sales","RowKey":"empid_000002","Note":"DELETE ${URL_BASE}(PartitionKey='Sales',RowKey='empid_000001') HTTP/1.1"}`,
);

it('replaces the If-Match: * of the conditioned delete and nothing else', () => {
  const body = batch(insertB, deleteA);
  const rewritten = withIfMatch(body, [
    { partitionKey: 'Sales', rowKey: 'empid_000001', etag: 'W/"v2"' },
  ]);
  expect(rewritten).toBe(body.replace('If-Match: *', 'If-Match: W/"v2"'));
});

it('adds If-Match to an operation that had none', () => {
  const merge = part(`MERGE ${URL_BASE}(PartitionKey='Sales',RowKey='department') HTTP/1.1`, [
    'DataServiceVersion: 3.0',
  ]);
  const rewritten = withIfMatch(batch(merge), [
    { partitionKey: 'Sales', rowKey: 'department', etag: '"d1"' },
  ]);
  expect(rewritten).toContain(`department') HTTP/1.1\r\nIf-Match: "d1"\r\nDataServiceVersion`);
});

it('leaves the body alone when there are no conditions', () => {
  const body = batch(deleteA);
  expect(withIfMatch(body, [])).toBe(body);
});

it('refuses a condition no delete or update can carry (an insert, or an absent entity)', () => {
  const body = batch(insertB, deleteA);
  expect(() =>
    withIfMatch(body, [{ partitionKey: 'Sales', rowKey: 'empid_000002', etag: '"x"' }]),
  ).toThrow(/No delete or update/);
  expect(() =>
    withIfMatch(body, [{ partitionKey: 'Other', rowKey: 'empid_000001', etag: '"x"' }]),
  ).toThrow(/No delete or update/);
});

it('refuses an ETag with a line break (it would forge headers inside the body)', () => {
  expect(() =>
    withIfMatch(batch(deleteA), [
      { partitionKey: 'Sales', rowKey: 'empid_000001', etag: '"x"\r\nIf-Match: *' },
    ]),
  ).toThrow(/line break/);
});

it('reads keys back from operation URLs: doubled quotes, percent-encoding, none for an insert', () => {
  expect(
    entityKeysOfUrl(`${URL_BASE}(PartitionKey='P%20k''%C3%A9%25',RowKey='x''''y%2CRowKey%3D''z')`),
  ).toEqual({ partitionKey: "P k'é%", rowKey: "x''y,RowKey='z" });
  expect(entityKeysOfUrl(URL_BASE)).toBeUndefined();
});
