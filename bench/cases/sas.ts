/**
 * Valet key: handing a client a SAS vs the app reading storage on the client's behalf.
 *
 * The pattern side issues tokens through the real SAS service (and, for latency, through the real
 * HTTP adapter, in process: principal parsing, authorization, input validation, signing, JSON).
 * Signing is local HMAC work: after the first token per table (which reads the stored access
 * policy once) it costs no storage request and no bytes. The baseline is what the app would do
 * per client request if it proxied the data instead: a partition query (expenses) or a photo
 * download, through storage.
 */
import { HttpRequest, InvocationContext } from '@azure/functions';
import type { Config } from '../../src/config';
import type { Principal } from '../../src/identity/principal';
import { employeePartitionKey } from '../../src/storage/keys/tables/employeePartitions';
import { invertedTicksRowKey } from '../../src/storage/keys/time';
import { odata } from '@azure/data-tables';
import { sasRoutes } from '../../functions/sas';
import { authorizedHandler } from '../../functions/shared/route';
import type { SasIssuer } from '../../src/accounts/routing/spreadSas';
import { employeePrincipal, PRINCIPAL_HEADER } from '../principals';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { atLeast, exactly, judge } from '../goals';
import { CLAIMS, DEPT, EMPLOYEE, PHOTO_BYTES, setUp, timedLoop } from '../sas/sasSetUp';
import { measureThroughHost } from '../sas/throughHost';

type Latency = { p50Ms: number; p95Ms: number };

/** Table tokens issued by the service, beside the app querying the partition for the client. */
async function measureTableTokens(
  env: BenchEnv,
  service: SasIssuer,
  employee: Principal,
  config: Config,
): Promise<{ tableTokens: Measurement; proxiedQueries: Measurement }> {
  const tokens = env.size(20_000);
  const proxied = env.size(500);
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
  return { tableTokens, proxiedQueries };
}

/** Photo write tokens, beside the app downloading the photo for the client. */
interface PhotoFigures {
  photoTokens: Measurement;
  proxiedPhotos: Measurement;
  /** Requests by kind while the tokens were issued. */
  photoKinds: Record<string, number>;
  photoTokenCount: number;
}

async function measurePhotoTokens(
  env: BenchEnv,
  service: SasIssuer,
  employee: Principal,
  grant: { container: string; blobName?: string },
): Promise<PhotoFigures> {
  const proxied = env.size(500);
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
  const photoBlob = env.clients.container(grant.container).getBlobClient(grant.blobName!);
  const proxiedPhotos = await env.measure(
    'app downloads the photo for the client',
    proxied,
    async () => {
      for (let i = 0; i < proxied; i++) await photoBlob.downloadToBuffer();
    },
  );
  return { photoTokens, proxiedPhotos, photoKinds, photoTokenCount };
}

/** Per-request latency through the HTTP adapter, in process (no HTTP transport). */
async function measureAdapter(
  env: BenchEnv,
  service: SasIssuer,
): Promise<{ adapter: Measurement; adapterLatency: Latency }> {
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
        if (response.status !== 200) throw new Error(`SAS adapter answered ${response.status}.`);
      });
    },
  );
  return { adapter, adapterLatency };
}

/** One entity point read through the counting proxy, timed per call. */
async function measurePointRead(
  env: BenchEnv,
  config: Config,
): Promise<{ pointRead: Measurement; readLatency: Latency }> {
  const expensesTable = env.clients.table(config.tables.expenses);
  const partitionKey = employeePartitionKey(DEPT, EMPLOYEE);
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
  return { pointRead, readLatency };
}

/** The in-process comparisons: table tokens, photo tokens, adapter latency. */
function sasComparisons(
  table: Awaited<ReturnType<typeof measureTableTokens>>,
  photo: PhotoFigures,
  adapter: Awaited<ReturnType<typeof measureAdapter>>,
  read: Awaited<ReturnType<typeof measurePointRead>>,
  http: Comparison | Error,
): Comparison[] {
  const { tableTokens, proxiedQueries } = table;
  const { photoKinds, photoTokenCount } = photo;
  // A photo's bytes would come through the app only as a blob read; issuing a token makes none.
  const photoDownloads = photoKinds['blob:GET'] ?? 0;
  return [
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
      pattern: photo.photoTokens,
      baseline: photo.proxiedPhotos,
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
      pattern: { ...adapter.adapter, ...adapter.adapterLatency },
      baseline: { ...read.pointRead, ...read.readLatency },
      notes:
        'Adapter = principal parsing + authorization + validation + signing + JSON, without ' +
        'HTTP transport; ' +
        'baseline = one entity point read through the counting proxy.' +
        (http instanceof Error
          ? ` The HTTP comparison could not run: ${http.message.split('\n')[0]}`
          : ''),
    },
  ];
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
      // Warm up: the first table token reads (and creates) the stored access policy.
      await service.expensesSas(employee, DEPT, EMPLOYEE);
      const grant = await service.photoSas(admin, DEPT, EMPLOYEE, 'read');
      const table = await measureTableTokens(env, service, employee, config);
      const photo = await measurePhotoTokens(env, service, employee, grant);
      const adapter = await measureAdapter(env, service);
      const read = await measurePointRead(env, config);
      const http = await measureThroughHost(env, settings).catch(
        (error: unknown) => error as Error,
      );
      const comparisons: Comparison[] = http instanceof Error ? [] : [http];
      comparisons.push(...sasComparisons(table, photo, adapter, read, http));
      return comparisons;
    } finally {
      await cleanup();
    }
  },
};

export default sasCase;
