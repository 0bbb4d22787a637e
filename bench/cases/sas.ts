/**
 * Valet key: handing a client a SAS vs the app reading storage on the client's behalf.
 *
 * The pattern side issues tokens through the real SAS service (and, for latency, through the real
 * HTTP adapter, in process: principal parsing, authorization, input validation, signing, JSON). Signing is local
 * HMAC work: after the first token per table (which reads the stored access policy once) it costs
 * no storage request and no bytes. The baseline is what the app would do per client request if it
 * proxied the data instead: a partition query (expenses) or a photo download, through storage.
 */
import { HttpRequest, InvocationContext } from '@azure/functions';
import { loadConfig, type Config } from '../../src/config';
import type { Principal } from '../../src/identity/principal';
import { employeePartitionKey } from '../../src/storage/keys/tables/employeePartitions';
import { employeeRowKey } from '../../src/storage/keys/tables/employees';
import { invertedTicksRowKey } from '../../src/storage/keys/time';
import { photoBlobName } from '../../src/storage/keys/blobs/photoBlobs';
import { odata } from '@azure/data-tables';
import { sasRoutes } from '../../functions/sas';
import { authorizedHandler } from '../../functions/shared/route';
import { createServices } from '../../functions/shared/services';
import { PHOTO_BLOB_PROPERTY } from '../../src/photos/photoLocator';
import type { SasIssuer } from '../../src/accounts/routing/spreadSas';
import { startBuiltHost } from '../builtHost';
import { percentile } from '../harness';
import { asPrincipal, employeePrincipal, PRINCIPAL_HEADER } from '../principals';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { atLeast, exactly, judge } from '../goals';

const DEPT = 'Sales';
const EMPLOYEE = '000223';
const CLAIMS = 20;
const PHOTO_BYTES = 64 * 1024;

/** Runs `op` `count` times one after another, timing each call. */
async function timedLoop(
  count: number,
  op: () => Promise<unknown>,
): Promise<{ p50Ms: number; p95Ms: number }> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await op();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}

async function expectStatus(response: Response, status: number): Promise<void> {
  await response.arrayBuffer();
  if (response.status !== status) throw new Error(`${response.url} answered ${response.status}.`);
}

async function setUp(env: BenchEnv): Promise<{
  service: SasIssuer;
  config: Config;
  settings: Record<string, string>;
  cleanup(): Promise<void>;
}> {
  const names = {
    EMPLOYEES_TABLE: env.uniqueName('BenchSasEmp', { table: true }),
    EXPENSES_TABLE: env.uniqueName('BenchSasExp', { table: true }),
    PHOTOS_CONTAINER: env.uniqueName('bench-sas-photos'),
    LOGS_CONTAINER: env.uniqueName('bench-sas-logs'),
  };
  const config = loadConfig({
    ...process.env,
    AzureWebJobsStorage: env.connectionString,
    ...names,
  });
  const { clients } = env;
  const expenses = clients.table(config.tables.expenses);
  const employees = clients.table(config.tables.employees);
  const photos = clients.container(config.containers.photos);
  await expenses.createTable();
  await employees.createTable();
  await photos.createIfNotExists();
  await clients.container(config.containers.logs).createIfNotExists();

  const partitionKey = employeePartitionKey(DEPT, EMPLOYEE);
  for (let i = 0; i < CLAIMS; i++) {
    await expenses.createEntity({
      partitionKey,
      rowKey: invertedTicksRowKey(new Date(Date.UTC(2026, 0, 1 + i)), `c${i}`),
      Amount: 12.5 * (i + 1),
      Currency: 'EUR',
      Description: `Taxi ride number ${i} to the customer site`,
    });
  }
  const photo = photoBlobName(DEPT, EMPLOYEE, 'v1');
  await photos.getBlockBlobClient(photo).uploadData(Buffer.alloc(PHOTO_BYTES, 7));
  await employees.createEntity({
    partitionKey: DEPT,
    rowKey: employeeRowKey(EMPLOYEE),
    [PHOTO_BLOB_PROPERTY]: photo,
  });

  return {
    // Wired by the composition root, as the app's own service is.
    service: createServices(() => config).sas(),
    config,
    settings: { ...names, AzureWebJobsStorage: env.connectionString },
    async cleanup() {
      await expenses.deleteTable();
      await employees.deleteTable();
      await photos.deleteIfExists();
      await clients.container(config.containers.logs).deleteIfExists();
    },
  };
}

/**
 * Through the local host over HTTP: `POST /api/sas/expenses/...` (the client then reads storage
 * itself) vs `GET /api/departments/.../expenses?top=20` (the app reads storage for the client).
 */
async function measureThroughHost(
  env: BenchEnv,
  settings: Record<string, string>,
): Promise<Comparison> {
  // All functions, as deployed (so the host's own queue polling shows in the counts).
  const host = await startBuiltHost(env, 'dist/functions/*.js', settings);
  try {
    const base = `${host.baseUrl}/departments/${DEPT}/employees/${EMPLOYEE}`;
    // The employee submits, reads and asks for a token on its own expenses.
    const principal = employeePrincipal(DEPT, EMPLOYEE);
    for (let i = 0; i < CLAIMS; i++) {
      await expectStatus(
        await fetch(
          `${base}/expenses`,
          asPrincipal(principal, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              amount: 10 + i,
              currency: 'EUR',
              description: `Train ticket ${i}`,
            }),
          }),
        ),
        201,
      );
    }
    const issue = (): Promise<void> =>
      fetch(
        `${host.baseUrl}/sas/expenses/${DEPT}/${EMPLOYEE}`,
        asPrincipal(principal, { method: 'POST' }),
      ).then((response) => expectStatus(response, 200));
    const proxyRead = (): Promise<void> =>
      fetch(`${base}/expenses?top=${CLAIMS}`, asPrincipal(principal)).then((response) =>
        expectStatus(response, 200),
      );
    await issue();
    await proxyRead();

    const requests = env.size(1_000);
    let issueLatency = { p50Ms: 0, p95Ms: 0 };
    const pattern = await env.measure('POST /api/sas/expenses (host, HTTP)', requests, async () => {
      issueLatency = await timedLoop(requests, issue);
    });
    let readLatency = { p50Ms: 0, p95Ms: 0 };
    const baseline = await env.measure(
      'GET /api/.../expenses?top=20 (host, HTTP)',
      requests,
      async () => {
        readLatency = await timedLoop(requests, proxyRead);
      },
    );
    return {
      name: 'valet key over HTTP: issue a token vs proxy the read through the app',
      pattern: { ...pattern, ...issueLatency },
      baseline: { ...baseline, ...readLatency },
      notes:
        `Both through the local Functions host; storage requests counted by the proxy. The client ` +
        `then reads ${CLAIMS} claims with the token, directly from storage, for as long as it lives. ` +
        'A few requests on the pattern side are the host’s own queue polling, not issuance.',
    };
  } finally {
    await host.stop();
  }
}

const sasCase: BenchCase = {
  name: 'sas',
  async run(env) {
    const { service, config, settings, cleanup } = await setUp(env);
    const employee: Principal = {
      userId: 'u',
      roles: new Set(),
      employee: { department: DEPT, employeeId: EMPLOYEE },
      claims: [],
    };
    const admin: Principal = { userId: 'a', roles: new Set(['DirectoryAdmin']), claims: [] };
    try {
      const tokens = env.size(20_000);
      const proxied = env.size(500);
      // Warm up: the first table token reads (and creates) the stored access policy.
      await service.expensesSas(employee, DEPT, EMPLOYEE);
      const grant = await service.photoSas(admin, DEPT, EMPLOYEE, 'read');

      const tableTokens = await env.measure('issue table SAS (service level)', tokens, async () => {
        for (let i = 0; i < tokens; i++) await service.expensesSas(employee, DEPT, EMPLOYEE);
      });
      const partitionKey = employeePartitionKey(DEPT, EMPLOYEE);
      const expensesTable = env.clients.table(config.tables.expenses);
      let entitiesRead = 0;
      const proxiedQueries = await env.measure(
        'app reads the partition for the client',
        proxied,
        async () => {
          for (let i = 0; i < proxied; i++) {
            for await (const _ of expensesTable.listEntities({
              queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
            })) {
              entitiesRead++;
            }
          }
          return { entities: entitiesRead };
        },
      );

      // A write token costs one point read (the employee must exist), so fewer of them.
      let photoKinds: Record<string, number> = {};
      const photoTokenCount = env.size(2_000);
      const photoTokens = await env.measure(
        'issue photo write SAS (blob service SAS)',
        photoTokenCount,
        async () => {
          env.resetTraffic();
          for (let i = 0; i < photoTokenCount; i++)
            await service.photoSas(employee, DEPT, EMPLOYEE, 'write');
          photoKinds = env.traffic().byKind;
        },
      );
      // A photo's bytes would come through the app only as a blob read; issuing a token makes none.
      const photoDownloads = photoKinds['blob:GET'] ?? 0;
      const photoBlob = env.clients.container(grant.container).getBlobClient(grant.blobName!);
      const proxiedPhotos = await env.measure(
        'app downloads the photo for the client',
        proxied,
        async () => {
          for (let i = 0; i < proxied; i++) await photoBlob.downloadToBuffer();
        },
      );

      // Per-request latency through the HTTP adapter, in process (no HTTP transport).
      const route = sasRoutes().expenses;
      const expensesAdapter = authorizedHandler(
        { ...route, uses: (s) => ({ issuer: service, metrics: s.metrics() }) },
        route.handler,
      );
      const principalHeader = employeePrincipal(DEPT, EMPLOYEE);
      const requestCount = env.size(5_000);
      let adapterLatency = { p50Ms: 0, p95Ms: 0 };
      const adapter: Measurement = await env.measure(
        'POST /sas/expenses via the adapter',
        requestCount,
        async () => {
          adapterLatency = await timedLoop(requestCount, async () => {
            const response = await expensesAdapter(
              new HttpRequest({
                method: 'POST',
                url: `http://localhost/api/sas/expenses/${DEPT}/${EMPLOYEE}`,
                params: { dept: DEPT, id: EMPLOYEE },
                headers: {
                  [PRINCIPAL_HEADER]: principalHeader,
                  'content-type': 'application/json',
                },
                body: { string: '{"minutes":15}' },
              }),
              new InvocationContext(),
            );
            if (response.status !== 200)
              throw new Error(`SAS adapter answered ${response.status}.`);
          });
        },
      );
      let readLatency = { p50Ms: 0, p95Ms: 0 };
      const reads = env.size(1_000);
      const pointRead = await env.measure('app point-reads one entity', reads, async () => {
        readLatency = await timedLoop(reads, () =>
          expensesTable.getEntity(
            partitionKey,
            invertedTicksRowKey(new Date(Date.UTC(2026, 0, 1)), 'c0'),
          ),
        );
      });

      const comparisons: Comparison[] = [];
      const http = await measureThroughHost(env, settings).catch(
        (error: unknown) => error as Error,
      );
      if (!(http instanceof Error)) comparisons.push(http);

      comparisons.push(
        {
          name: 'valet key: table SAS issuance vs proxying a partition read',
          pattern: tableTokens,
          baseline: proxiedQueries,
          goal: judge('≥ 20,000 tokens/s; 0 storage requests per token', [
            atLeast('issued', tableTokens.opsPerSecond, 20_000, ' tokens/s'),
            exactly('storage requests per token', tableTokens.requests / tableTokens.operations, 0),
          ]),
          notes: `Baseline: one query of a ${CLAIMS}-claim expenses partition per client request.`,
        },
        {
          name: 'valet key: photo SAS issuance vs proxying a photo download',
          pattern: photoTokens,
          baseline: proxiedPhotos,
          goal: judge('1 point read (employee exists) and 0 bytes through the app per token', [
            exactly('point reads per token', (photoKinds['table:GET'] ?? 0) / photoTokenCount, 1),
            exactly('photo downloads through the app', photoDownloads, 0),
          ]),
          notes:
            `Baseline: one ${PHOTO_BYTES / 1024} KiB photo download per client request. ` +
            'A write token is issued only for an existing employee: one projected point read each.',
        },
        {
          name: 'SAS request latency (HTTP adapter, in process) vs a storage point read',
          pattern: { ...adapter, ...adapterLatency },
          baseline: { ...pointRead, ...readLatency },
          notes:
            'Adapter = principal parsing + authorization + validation + signing + JSON, without ' +
            'HTTP transport; ' +
            'baseline = one entity point read through the counting proxy.' +
            (http instanceof Error
              ? ` The HTTP comparison could not run: ${http.message.split('\n')[0]}`
              : ''),
        },
      );
      return comparisons;
    } finally {
      await cleanup();
    }
  },
};

export default sasCase;
