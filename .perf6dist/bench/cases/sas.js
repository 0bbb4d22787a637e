"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * Valet key: handing a client a SAS vs the app reading storage on the client's behalf.
 *
 * The pattern side issues tokens through the real SAS service (and, for latency, through the real
 * HTTP adapter, in process: principal parsing, input validation, signing, JSON). Signing is local
 * HMAC work: after the first token per table (which reads the stored access policy once) it costs
 * no storage request and no bytes. The baseline is what the app would do per client request if it
 * proxied the data instead: a partition query (expenses) or a photo download, through storage.
 */
const node_child_process_1 = require("node:child_process");
const node_path_1 = __importDefault(require("node:path"));
const functions_1 = require("@azure/functions");
const config_1 = require("../../src/config");
const principal_1 = require("../../src/identity/principal");
const keys_1 = require("../../src/storage/keys");
const data_tables_1 = require("@azure/data-tables");
const sas_1 = require("../../functions/sas");
const photoLocator_1 = require("../../src/sas/photoLocator");
const service_1 = require("../../src/sas/service");
const DEPT = 'Sales';
const EMPLOYEE = '000223';
const CLAIMS = 20;
const PHOTO_BYTES = 64 * 1024;
function percentile(sortedMs, p) {
    const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
    return Math.round(sortedMs[Math.max(0, index)] * 1000) / 1000;
}
/** Runs `op` `count` times one after another, timing each call. */
async function timedLoop(count, op) {
    const samples = [];
    for (let i = 0; i < count; i++) {
        const start = process.hrtime.bigint();
        await op();
        samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    samples.sort((a, b) => a - b);
    return { p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}
/**
 * Starts the project's own functions on the local host: from TypeScript sources when this case
 * runs under swc, from `dist/` (package.json `main`) when it runs compiled.
 *
 * @throws {Error} with the host's output when it exits or does not listen within 60 s.
 */
async function startBenchHost(settings) {
    const fromSources = __filename.endsWith('.ts');
    const root = node_path_1.default.resolve(__dirname, fromSources ? '../..' : '../../..');
    const args = fromSources
        ? [
            '-r',
            '@swc-node/register',
            node_path_1.default.join(root, 'tools/host/cli.ts'),
            '--functions',
            'functions/*.ts',
        ]
        : [node_path_1.default.join(root, 'dist/tools/host/cli.js')];
    args.push('--app-root', root, '--port', '0');
    const child = (0, node_child_process_1.spawn)(process.execPath, args, {
        cwd: root,
        env: { ...process.env, HOST_LOG_LEVEL: 'warning', ...settings },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const origin = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`The local host did not start:\n${output}`)), 60_000);
        const onData = (chunk) => {
            output += chunk.toString('utf8');
            const match = /Host listening on (http:\/\/[\d.]+:\d+)/.exec(output);
            if (match) {
                clearTimeout(timer);
                resolve(match[1]);
            }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`The local host exited (${code}):\n${output}`));
        });
    });
    return {
        baseUrl: `${origin}/api`,
        stop: () => new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null)
                return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
        }),
    };
}
async function expectStatus(response, status) {
    await response.arrayBuffer();
    if (response.status !== status)
        throw new Error(`${response.url} answered ${response.status}.`);
}
async function setUp(env) {
    const names = {
        EMPLOYEES_TABLE: env.uniqueName('BenchSasEmp', { table: true }),
        EXPENSES_TABLE: env.uniqueName('BenchSasExp', { table: true }),
        PHOTOS_CONTAINER: env.uniqueName('bench-sas-photos'),
        LOGS_CONTAINER: env.uniqueName('bench-sas-logs'),
    };
    const config = (0, config_1.loadConfig)({
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
    const partitionKey = (0, keys_1.employeePartitionKey)(DEPT, EMPLOYEE);
    for (let i = 0; i < CLAIMS; i++) {
        await expenses.createEntity({
            partitionKey,
            rowKey: (0, keys_1.invertedTicksRowKey)(new Date(Date.UTC(2026, 0, 1 + i)), `c${i}`),
            Amount: 12.5 * (i + 1),
            Currency: 'EUR',
            Description: `Taxi ride number ${i} to the customer site`,
        });
    }
    const photo = (0, keys_1.photoBlobName)(DEPT, EMPLOYEE, 'v1');
    await photos.getBlockBlobClient(photo).uploadData(Buffer.alloc(PHOTO_BYTES, 7));
    await employees.createEntity({
        partitionKey: DEPT,
        rowKey: (0, keys_1.employeeRowKey)(EMPLOYEE),
        [photoLocator_1.PHOTO_BLOB_PROPERTY]: photo,
    });
    return {
        service: new service_1.SasService({ clients, config }),
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
async function measureThroughHost(env, settings) {
    const host = await startBenchHost(settings);
    try {
        const base = `${host.baseUrl}/departments/${DEPT}/employees/${EMPLOYEE}`;
        for (let i = 0; i < CLAIMS; i++) {
            await expectStatus(await fetch(`${base}/expenses`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({
                    amount: 10 + i,
                    currency: 'EUR',
                    description: `Train ticket ${i}`,
                }),
            }), 201);
        }
        const principal = (0, principal_1.encodePrincipalHeader)({ userId: 'u', employeeId: EMPLOYEE });
        const issue = () => fetch(`${host.baseUrl}/sas/expenses/${DEPT}/${EMPLOYEE}`, {
            method: 'POST',
            headers: { 'x-ms-client-principal': principal },
        }).then((response) => expectStatus(response, 200));
        const proxyRead = () => fetch(`${base}/expenses?top=${CLAIMS}`).then((response) => expectStatus(response, 200));
        await issue();
        await proxyRead();
        const requests = env.size(1_000);
        let issueLatency = { p50Ms: 0, p95Ms: 0 };
        const pattern = await env.measure('POST /api/sas/expenses (host, HTTP)', requests, async () => {
            issueLatency = await timedLoop(requests, issue);
        });
        let readLatency = { p50Ms: 0, p95Ms: 0 };
        const baseline = await env.measure('GET /api/.../expenses?top=20 (host, HTTP)', requests, async () => {
            readLatency = await timedLoop(requests, proxyRead);
        });
        return {
            name: 'valet key over HTTP: issue a token vs proxy the read through the app',
            pattern: { ...pattern, ...issueLatency },
            baseline: { ...baseline, ...readLatency },
            notes: `Both through the local Functions host; storage requests counted by the proxy. The client ` +
                `then reads ${CLAIMS} claims with the token, directly from storage, for as long as it lives. ` +
                'A few requests on the pattern side are the host’s own queue polling, not issuance.',
        };
    }
    finally {
        await host.stop();
    }
}
const sasCase = {
    name: 'sas',
    async run(env) {
        const { service, config, settings, cleanup } = await setUp(env);
        const employee = { userId: 'u', roles: new Set(), employeeId: EMPLOYEE, claims: [] };
        const admin = { userId: 'a', roles: new Set(['DirectoryAdmin']), claims: [] };
        try {
            const tokens = env.size(20_000);
            const proxied = env.size(500);
            // Warm up: the first table token reads (and creates) the stored access policy.
            await service.expensesSas(employee, DEPT, EMPLOYEE);
            const grant = await service.photoSas(admin, DEPT, EMPLOYEE, 'read');
            const tableTokens = await env.measure('issue table SAS (service level)', tokens, async () => {
                for (let i = 0; i < tokens; i++)
                    await service.expensesSas(employee, DEPT, EMPLOYEE);
            });
            const partitionKey = (0, keys_1.employeePartitionKey)(DEPT, EMPLOYEE);
            const expensesTable = env.clients.table(config.tables.expenses);
            let entitiesRead = 0;
            const proxiedQueries = await env.measure('app reads the partition for the client', proxied, async () => {
                for (let i = 0; i < proxied; i++) {
                    for await (const _ of expensesTable.listEntities({
                        queryOptions: { filter: (0, data_tables_1.odata) `PartitionKey eq ${partitionKey}` },
                    })) {
                        entitiesRead++;
                    }
                }
                return { entities: entitiesRead };
            });
            const photoTokens = await env.measure('issue photo write SAS (blob service SAS)', tokens, async () => {
                for (let i = 0; i < tokens; i++)
                    await service.photoSas(employee, DEPT, EMPLOYEE, 'write');
            });
            const photoBlob = env.clients.container(grant.container).getBlobClient(grant.blobName);
            const proxiedPhotos = await env.measure('app downloads the photo for the client', proxied, async () => {
                for (let i = 0; i < proxied; i++)
                    await photoBlob.downloadToBuffer();
            });
            // Per-request latency through the HTTP adapter, in process (no HTTP transport).
            const handlers = (0, sas_1.createSasHandlers)(() => service);
            const principalHeader = (0, principal_1.encodePrincipalHeader)({ userId: 'u', employeeId: EMPLOYEE });
            const requestCount = env.size(5_000);
            let adapterLatency = { p50Ms: 0, p95Ms: 0 };
            const adapter = await env.measure('POST /sas/expenses via the adapter', requestCount, async () => {
                adapterLatency = await timedLoop(requestCount, async () => {
                    const response = await handlers.expenses(new functions_1.HttpRequest({
                        method: 'POST',
                        url: `http://localhost/api/sas/expenses/${DEPT}/${EMPLOYEE}`,
                        params: { dept: DEPT, id: EMPLOYEE },
                        headers: { 'x-ms-client-principal': principalHeader },
                        body: { string: '{"minutes":15}' },
                    }), new functions_1.InvocationContext());
                    if (response.status !== 200)
                        throw new Error(`SAS adapter answered ${response.status}.`);
                });
            });
            let readLatency = { p50Ms: 0, p95Ms: 0 };
            const reads = env.size(1_000);
            const pointRead = await env.measure('app point-reads one entity', reads, async () => {
                readLatency = await timedLoop(reads, () => expensesTable.getEntity(partitionKey, (0, keys_1.invertedTicksRowKey)(new Date(Date.UTC(2026, 0, 1)), 'c0')));
            });
            const comparisons = [];
            const http = await measureThroughHost(env, settings).catch((error) => error);
            if (!(http instanceof Error))
                comparisons.push(http);
            comparisons.push({
                name: 'valet key: table SAS issuance vs proxying a partition read',
                pattern: tableTokens,
                baseline: proxiedQueries,
                goal: '≥ 20,000 tokens/s; 0 storage requests per token',
                notes: `Baseline: one query of a ${CLAIMS}-claim expenses partition per client request.`,
            }, {
                name: 'valet key: photo SAS issuance vs proxying a photo download',
                pattern: photoTokens,
                baseline: proxiedPhotos,
                goal: '≥ 20,000 tokens/s; 0 bytes through the app',
                notes: `Baseline: one ${PHOTO_BYTES / 1024} KiB photo download per client request.`,
            }, {
                name: 'SAS request latency (HTTP adapter, in process) vs a storage point read',
                pattern: { ...adapter, ...adapterLatency },
                baseline: { ...pointRead, ...readLatency },
                notes: 'Adapter = principal parsing + validation + signing + JSON, without HTTP transport; ' +
                    'baseline = one entity point read through the counting proxy.' +
                    (http instanceof Error
                        ? ` The HTTP comparison could not run: ${http.message.split('\n')[0]}`
                        : ''),
            });
            return comparisons;
        }
        finally {
            await cleanup();
        }
    },
};
exports.default = sasCase;
//# sourceMappingURL=sas.js.map