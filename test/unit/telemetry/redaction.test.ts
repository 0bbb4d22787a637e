/**
 * Personal data out of telemetry: the strings a span carries lose their keys, blob names, filter
 * literals, continuation keys, signatures and e-mail addresses; what names the dependency stays.
 */
import { REDACTED, redactText } from '../../../src/telemetry/redaction';

const AZURITE = 'http://127.0.0.1:10002/devstoreaccount1';

it.each([
  [
    'an entity read (emulator, path-style)',
    `${AZURITE}/Employees(PartitionKey='Eng',RowKey='email_secret.person%40x.com')`,
    `${AZURITE}/Employees(PartitionKey='${REDACTED}',RowKey='${REDACTED}')`,
  ],
  [
    'an entity read (Azure, encoded quotes)',
    'https://acct.table.core.windows.net/Employees(PartitionKey=%27Eng%27,RowKey=%27empid_000223%27)?timeout=5',
    `https://acct.table.core.windows.net/Employees(PartitionKey='${REDACTED}',RowKey='${REDACTED}')?timeout=5`,
  ],
  [
    'a login day table keyed by user id',
    `${AZURITE}/LoginAttempts20261127(PartitionKey='user-42',RowKey='0000638')`,
    `${AZURITE}/LoginAttempts20261127(PartitionKey='${REDACTED}',RowKey='${REDACTED}')`,
  ],
  [
    'a query: filter literals and continuation keys',
    `${AZURITE}/Employees()?$filter=PartitionKey%20eq%20%27Eng%27%20and%20RowKey%20ge%20%27email_a%40b.com%27&NextPartitionKey=1!8!RW5n&NextRowKey=1!12!ZW1waWQ&$top=10`,
    `${AZURITE}/Employees()?$filter=${encodeURIComponent(`PartitionKey eq '${REDACTED}' and RowKey ge '${REDACTED}'`)}&NextPartitionKey=${REDACTED}&NextRowKey=${REDACTED}&$top=10`,
  ],
  [
    'a photo blob (Azure)',
    'https://acct.blob.core.windows.net/photos/Sales/000223/20261127T101010Z?comp=properties',
    `https://acct.blob.core.windows.net/photos/${REDACTED}?comp=properties`,
  ],
  [
    'a last-name list blob (emulator) and its listing prefix',
    'http://127.0.0.1:10000/devstoreaccount1/lastname-index?restype=container&comp=list&prefix=jones',
    `http://127.0.0.1:10000/devstoreaccount1/lastname-index?restype=container&comp=list&prefix=${REDACTED}`,
  ],
  [
    'a blob with a SAS signature',
    'https://acct.blob.core.windows.net/photos/Sales/000223/v1?sv=2024-11-04&sig=abc%2Bdef',
    `https://acct.blob.core.windows.net/photos/${REDACTED}?sv=2024-11-04&sig=${REDACTED}`,
  ],
  [
    "the Durable client's webhook call: the host key as code=",
    'http://127.0.0.1:7071/runtime/webhooks/durabletask/instances/abc?taskHub=Hub&connection=Storage&code=k3y_-Z%3D',
    `http://127.0.0.1:7071/runtime/webhooks/${REDACTED}?taskHub=Hub&connection=Storage&code=${REDACTED}`,
  ],
  [
    'secret query parameters in any spelling of their names',
    'https://x.example/a?Code=1&SIG=2&api-key=3&access_token=4&x-functions-key=5&comp=list',
    `https://x.example/a?Code=${REDACTED}&SIG=${REDACTED}&api-key=${REDACTED}&access_token=${REDACTED}&x-functions-key=${REDACTED}&comp=list`,
  ],
  [
    'a query string in a message (no URL around it)',
    'GET /runtime?taskHub=Hub&code=k3y failed',
    `GET /runtime?taskHub=Hub&code=${REDACTED} failed`,
  ],
  [
    'a connection string: the account key and a SAS',
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Eby8vdM02x+NOCf==;EndpointSuffix=core.windows.net|SharedAccessSignature=sv=2024&sig=abc',
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${REDACTED};EndpointSuffix=core.windows.net|SharedAccessSignature=sv=2024&sig=${REDACTED}`,
  ],
  [
    'credentials in a header form',
    'authorization: Bearer eyJhbGciOi.x.y; Authorization: SharedKey acct:c2lnbmF0dXJl',
    `authorization: Bearer ${REDACTED}; Authorization: SharedKey ${REDACTED}`,
  ],
  [
    'a queue message (its id is the service GUID)',
    'http://127.0.0.1:10001/devstoreaccount1/index-updates/messages/0b0d1c7e-5c55-4c66-9b1a-3c6b9c0c0a11?popreceipt=x',
    'http://127.0.0.1:10001/devstoreaccount1/index-updates/messages/0b0d1c7e-5c55-4c66-9b1a-3c6b9c0c0a11?popreceipt=x',
  ],
  [
    'a path alone: only its first segment is known to be no key',
    '/photos/Sales/000223/v1',
    `/photos/${REDACTED}`,
  ],
  [
    'an exception message naming keys and an address',
    "EmailTaken: ada@example.com is taken; PartitionKey eq 'Eng' failed",
    `EmailTaken: ${REDACTED} is taken; PartitionKey eq '${REDACTED}' failed`,
  ],
])('%s', (_what, text, redacted) => {
  expect(redactText(text)).toBe(redacted);
});

it('leaves what names no one alone', () => {
  for (const text of [
    'TableClient.getEntity',
    'GET',
    'directory.outbox.drain',
    'index-updates process',
    `${AZURITE}/Tables`,
    'https://acct.queue.core.windows.net/archive-requests/messages',
    'the process ended with exit code=1',
    'ErrorCode=SnapshotsPresent',
  ]) {
    expect(redactText(text)).toBe(text);
  }
});
