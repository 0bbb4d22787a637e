/**
 * The client factory without I/O: connection strings, endpoints, and the per-try deadline policy
 * that every client runs inside its SDK's retry loop.
 */
import { AbortError } from '@azure/abort-controller';
import {
  createHttpHeaders,
  createPipelineRequest,
  isRestError,
  type PipelineRequest,
  type PipelineResponse,
} from '@azure/core-rest-pipeline';
import type { AccessToken, TokenCredential } from '@azure/identity';
import { loadConfig } from '../../../src/config';
import {
  createStorageClients,
  expandConnectionString,
  parseConnectionString,
  tryTimeoutPolicy,
} from '../../../src/storage/clients';

const retry = loadConfig({ AzureWebJobsStorage: 'UseDevelopmentStorage=true' }).retry;
const KEY = Buffer.from('not a real key').toString('base64');

describe('connection strings', () => {
  it('expands UseDevelopmentStorage=true to the emulator endpoints', () => {
    const parts = parseConnectionString(' UseDevelopmentStorage=true; ');
    expect(parts.get('accountname')).toBe('devstoreaccount1');
    expect(parts.get('tableendpoint')).toBe('http://127.0.0.1:10002/devstoreaccount1');
    expect(expandConnectionString('AccountName=a;AccountKey=b')).toBe('AccountName=a;AccountKey=b');
  });

  it('reads keys case-insensitively and keeps = inside values (base64 keys)', () => {
    const parts = parseConnectionString(
      `accountname=contoso;ACCOUNTKEY=${KEY};EndpointSuffix=core.chinacloudapi.cn`,
    );
    expect(parts.get('accountkey')).toBe(KEY);
    expect(parts.get('endpointsuffix')).toBe('core.chinacloudapi.cn');
  });

  it('builds account endpoints from the name and suffix, and takes explicit ones as given', () => {
    const clients = createStorageClients(
      {
        kind: 'connectionString',
        connectionString: `DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=${KEY};EndpointSuffix=core.chinacloudapi.cn;QueueEndpoint=https://queues.example.com/`,
      },
      retry,
    );
    expect(clients.table('Employees').url).toBe('https://contoso.table.core.chinacloudapi.cn');
    expect(clients.table('Employees').tableName).toBe('Employees');
    expect(clients.container('photos').url).toBe(
      'https://contoso.blob.core.chinacloudapi.cn/photos',
    );
    expect(clients.queue('archive-requests').url).toBe(
      'https://queues.example.com/archive-requests',
    );
    expect(clients.sharedKey).toEqual({ accountName: 'contoso', accountKey: KEY });
    expect(clients.isLoopback).toBe(false);
  });

  it('refuses a connection string without an account key', () => {
    expect(() =>
      createStorageClients(
        { kind: 'connectionString', connectionString: 'AccountName=contoso' },
        retry,
      ),
    ).toThrow(/AccountName and AccountKey/);
  });

  it('recognises the emulator as loopback and reuses one client per table', () => {
    const clients = createStorageClients(
      { kind: 'connectionString', connectionString: 'UseDevelopmentStorage=true' },
      retry,
    );
    expect(clients.isLoopback).toBe(true);
    expect(clients.table('Employees')).toBe(clients.table('Employees'));
    expect(clients.tableService()).toBe(clients.tableService());
  });

  it('uses the given token credential and service URIs for managed identity', () => {
    const credential: TokenCredential = {
      getToken: async (): Promise<AccessToken> => ({
        token: 't',
        expiresOnTimestamp: Date.now() + 60_000,
      }),
    };
    const clients = createStorageClients(
      {
        kind: 'identity',
        tableServiceUri: 'https://contoso.table.core.windows.net/',
        queueServiceUri: 'https://contoso.queue.core.windows.net',
        blobServiceUri: 'https://contoso.blob.core.windows.net',
      },
      retry,
      credential,
    );
    expect(clients.sharedKey).toBeUndefined();
    // The trailing slash is dropped so table URLs do not get a double slash.
    expect(clients.table('Employees').url).toBe('https://contoso.table.core.windows.net');
    expect(clients.container('photos').url).toBe('https://contoso.blob.core.windows.net/photos');
  });
});

describe('per-try deadline', () => {
  const request = (abortSignal?: AbortSignal): PipelineRequest =>
    createPipelineRequest({ url: 'http://127.0.0.1:1/devstoreaccount1/Tables', abortSignal });

  /** A transport that answers after `ms`, or fails with AbortError if the try's signal fires first. */
  const answersAfter =
    (ms: number) =>
    (req: PipelineRequest): Promise<PipelineResponse> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => resolve({ status: 200, headers: createHttpHeaders(), request: req }),
          ms,
        );
        req.abortSignal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new AbortError('The operation was aborted.'));
        });
      });

  it('abandons a try that takes too long with a retriable ETIMEDOUT', async () => {
    const error: unknown = await tryTimeoutPolicy(50)
      .sendRequest(request(), answersAfter(5_000))
      .catch((e: unknown) => e);
    expect(isRestError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'ETIMEDOUT',
      message: expect.stringContaining('STORAGE_TRY_TIMEOUT_MS'),
    });
  });

  it('passes a timely answer through and gives the request its own signal back', async () => {
    const callerSignal = new AbortController().signal;
    const req = request(callerSignal);
    const response = await tryTimeoutPolicy(1_000).sendRequest(req, answersAfter(5));
    expect(response.status).toBe(200);
    expect(req.abortSignal).toBe(callerSignal);
  });

  it("lets the caller's abort end the try as an abort, not as a timeout", async () => {
    const caller = new AbortController();
    const pending = tryTimeoutPolicy(5_000).sendRequest(
      request(caller.signal),
      answersAfter(5_000),
    );
    caller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
