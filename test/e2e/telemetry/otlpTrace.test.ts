/**
 * "One write, one trace", through the local host as it runs in Azure: the host started with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a small collector (http/json), one employee create
 * yields one trace across the HTTP function and the queue function — the request, the outbox
 * nudge it sends, the drain the nudge causes and the drain's index writes (Azure SDK spans); a
 * log batch's trace continues into its flush; an orchestration's activities continue the trace
 * of the request that started it.
 */
import { startHost, type RunningHost } from '../../support/host';
import { startOtlpCollector, type OtlpCollector } from '../../support/otlpCollector';
import { asAdmin, asTelemetry } from '../../support/principals';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';

const EMPLOYEES_TABLE = uniqueTableName('EmpOtel');
const EMPLOYEE_INDEX_TABLE = uniqueTableName('IdxOtel');
const LOGS_CONTAINER = uniqueName('logsotel');
let host: RunningHost;
let collector: OtlpCollector;

beforeAll(async () => {
  collector = await startOtlpCollector();
  host = await startHost({
    env: {
      EMPLOYEES_TABLE,
      EMPLOYEE_INDEX_TABLE,
      LOGS_CONTAINER,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      // Every nudge through the queue (the path of a writer that cannot drain itself); the
      // writer's own drain has its own case below.
      INDEX_DRAIN_LINGER_MS: '0',
    },
    args: ['--metrics-summary'],
  });
});
afterAll(async () => {
  await host?.stop();
  await collector?.close();
  await testClients().table(EMPLOYEES_TABLE).deleteTable();
  await testClients().table(EMPLOYEE_INDEX_TABLE).deleteTable();
  await testClients().container(LOGS_CONTAINER).deleteIfExists();
});

/** Sends `body` as JSON with `method` to `path` of `baseUrl`, as an admin. */
function sendAsAdmin(
  baseUrl: string,
  method: string,
  path: string,
  body: unknown,
): Promise<Response> {
  return fetch(
    `${baseUrl}${path}`,
    asAdmin({
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

async function until<T>(find: () => T | undefined, what: string, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) {
      const names = collector.spans.map((s) => `${s.scope}:${s.name}`).join(', ');
      throw new Error(`No ${what} within ${timeoutMs} ms; spans: ${names}\n${host.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('exports one trace from the create request through the nudge to the drain and its index writes', async () => {
  const department = await sendAsAdmin(host.baseUrl, 'PUT', `/departments/Tracing`, {
    description: 'Traced',
  });
  expect(department.status).toBe(201);
  const created = await sendAsAdmin(host.baseUrl, 'POST', `/departments/Tracing/employees`, {
    employeeId: '000101',
    firstName: 'Ada',
    lastName: 'Trace',
    email: 'ada.trace@example.com',
    age: 36,
  });
  expect(created.status).toBe(201);

  const request = await until(
    () =>
      collector.spans.find(
        (s) =>
          s.attributes['faas.name'] === 'createEmployee' &&
          s.attributes['faas.trigger'] === 'httpTrigger',
      ),
    'HTTP invocation span',
  );
  const traceId = request.traceId;
  const inTrace = () => collector.spans.filter((s) => s.traceId === traceId);
  // The queue function's work continues the request's trace, linked to its own invocation span.
  const processing = await until(
    () =>
      inTrace().find(
        (s) => s.name.endsWith(' process') && s.attributes['messaging.destination.name'],
      ),
    'queue processing span in the request trace',
  );
  const invocation = collector.spans.find((s) => s.spanId === processing.links[0]?.spanId);
  expect(invocation?.attributes['faas.trigger']).toBe('queueTrigger');
  const drain = await until(
    () => inTrace().find((s) => s.name === 'directory.outbox.drain'),
    'drain span in the request trace',
  );
  expect(drain.attributes['directory.department']).toBe('Tracing');
  // The Azure SDK's dependency spans: the nudge sent during the request, and the drain's writes.
  await until(
    () => inTrace().find((s) => s.scope.includes('azure') && /sendMessage/i.test(s.name)),
    'queue send span',
  );
  // The index writes: entity group transactions of the drain, children of its span.
  const writes = await until(() => {
    const under = inTrace().filter(
      (s) => s.name === 'TableTransaction.submitTransaction' && s.parentSpanId === drain.spanId,
    );
    return under.length > 0 ? under : undefined;
  }, 'index write spans under the drain');
  expect(writes.length).toBeGreaterThan(0);
  // Below each SDK call, the pipeline's try and its outgoing HTTP request (the HTTP
  // instrumentation, set up before the SDKs' HTTP client loaded): a client span with the method.
  const outgoing = await until(() => {
    const tries = inTrace().filter((s) => writes.some((w) => w.spanId === s.parentSpanId));
    return inTrace().find(
      (s) =>
        s.scope === '@opentelemetry/instrumentation-http' &&
        tries.some((t) => t.spanId === s.parentSpanId),
    );
  }, 'outgoing HTTP span under an index write');
  expect(outgoing.kind).toBe(3); // SPAN_KIND_CLIENT
  expect(outgoing.attributes['http.request.method'] ?? outgoing.attributes['http.method']).toBe(
    'POST',
  );
  // Incoming requests are the host's invocation spans only: no second server span.
  expect(
    collector.spans.filter(
      (s) => s.scope === '@opentelemetry/instrumentation-http' && s.kind === 2,
    ),
  ).toEqual([]);
  expect(drain.parentSpanId).toBe(processing.spanId);
  expect(processing.parentSpanId).toBe(request.spanId);
  expect(collector.contentTypes).toContain('application/json');

  // The drain's metrics reach the collector too.
  await until(
    () => (collector.metrics.has('directory.drain.rounds') ? true : undefined),
    'directory.drain.rounds metric',
  );
  expect(collector.metrics.get('directory.drain.rounds')).toContainEqual({ outcome: 'committed' });
});

it("keeps the writer's own drain (after its linger) in the create request's trace", async () => {
  const writer = await startHost({
    env: {
      EMPLOYEES_TABLE,
      EMPLOYEE_INDEX_TABLE,
      LOGS_CONTAINER,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      INDEX_DRAIN_LINGER_MS: '100',
    },
  });
  try {
    const before = new Set(collector.spans.map((s) => s.spanId));
    const created = await sendAsAdmin(writer.baseUrl, 'POST', `/departments/Tracing/employees`, {
      employeeId: '000102',
      firstName: 'Bea',
      lastName: 'Writer',
      email: 'bea.writer@example.com',
      age: 41,
    });
    expect(created.status).toBe(201);
    const request = await until(
      () =>
        collector.spans.find(
          (s) =>
            !before.has(s.spanId) &&
            s.attributes['faas.name'] === 'createEmployee' &&
            s.attributes['faas.trigger'] === 'httpTrigger',
        ),
      'the second create request span',
    );
    const drain = await until(
      () =>
        collector.spans.find(
          (s) => s.traceId === request.traceId && s.name === 'directory.outbox.drain',
        ),
      "the writer's drain span in the request trace",
    );
    await until(
      () =>
        collector.spans.find(
          (s) => s.parentSpanId === drain.spanId && s.name === 'TableTransaction.submitTransaction',
        ),
      'index writes under the writer’s drain',
    );
  } finally {
    await writer.stop();
  }
});

it("continues a log batch's trace into the flush that writes its hour blob", async () => {
  const posted = await fetch(
    `${host.baseUrl}/logs`,
    asTelemetry({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        source: 'checkout',
        entries: [{ at: '2026-11-26T03:00:00Z', level: 'Error', message: 'traced' }],
      }),
    }),
  );
  expect(posted.status).toBe(202);
  const request = await until(
    () => collector.spans.find((s) => s.attributes['faas.name'] === 'postLogs'),
    'postLogs invocation span',
  );
  const flush = await until(
    () =>
      collector.spans.find(
        (s) => s.traceId === request.traceId && s.name.endsWith(' process') && s.parentSpanId,
      ),
    'log-batches processing span in the POST /logs trace',
  );
  // The hour blob's writes are dependencies of the flush, in the same trace.
  await until(
    () =>
      collector.spans.find(
        (s) => s.parentSpanId === flush.spanId && s.scope === '@azure/storage-blob',
      ),
    'blob write under the flush',
  );
});

it("continues the starting request's trace into every activity of an orchestration", async () => {
  // A department of its own, so the audit has one to audit whichever tests ran before.
  const department = await sendAsAdmin(host.baseUrl, 'PUT', `/departments/AuditTrace`, {
    description: 'Audited',
  });
  expect(department.status).toBe(201);
  const started = await sendAsAdmin(host.baseUrl, 'POST', `/maintenance/indexes/audit`, {
    repair: false,
  });
  expect(started.status).toBe(202);
  const { statusUri } = (await started.json()) as { statusUri: string };
  const request = await until(
    () => collector.spans.find((s) => s.attributes['faas.name'] === 'startIndexAudit'),
    'startIndexAudit invocation span',
  );
  // The audit lists the departments, audits each page and then the org-wide last names.
  const activities = await until(() => {
    const names = new Set(
      collector.spans
        .filter((s) => s.traceId === request.traceId && s.attributes['durable.activity'])
        .map((s) => String(s.attributes['durable.activity'])),
    );
    return names.size >= 3 ? names : undefined;
  }, 'three activity spans in the start request’s trace');
  expect([...activities].sort()).toEqual(
    expect.arrayContaining([
      'AuditDepartmentIndexesActivity',
      'AuditOrgLastNameIndexActivity',
      'ListDepartmentPageActivity',
    ]),
  );
  // The orchestration's own view (input and output) does not carry the field.
  const status = (await (
    await fetch(`${host.baseUrl.replace(/\/api$/, '')}${statusUri}`, asAdmin())
  ).json()) as Record<string, unknown>;
  expect(JSON.stringify(status)).not.toContain('traceparent');
});

it('exports no e-mail address, employee id or user id: a create, a lookup by email and a login', async () => {
  // Keys of this app are personal data: the dependency spans of these requests name them in
  // their URLs (entity keys, filters), unless redacted before export (spanRedaction.ts).
  const secrets = [
    'grace.hidden@example.com',
    'grace.hidden%40example.com',
    '000177',
    'user-hidden-42',
  ];
  const department = await sendAsAdmin(host.baseUrl, 'PUT', `/departments/Hidden`, {});
  expect(department.status).toBe(201);
  const before = new Set(collector.spans.map((s) => s.spanId));
  const created = await sendAsAdmin(host.baseUrl, 'POST', `/departments/Hidden/employees`, {
    employeeId: '000177',
    firstName: 'Grace',
    lastName: 'Hidden',
    email: 'grace.hidden@example.com',
  });
  expect(created.status).toBe(201);
  const found = await fetch(
    `${host.baseUrl}/departments/Hidden/employees/by-email/grace.hidden%40example.com`,
    asAdmin(),
  );
  expect(found.status).toBe(200);
  const login = await fetch(
    `${host.baseUrl}/logins`,
    asTelemetry({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'user-hidden-42', succeeded: true }),
    }),
  );
  expect(login.status).toBe(201);

  // Every request's trace, down to its storage calls (the read of the email copy, the login
  // table's insert) and the drain of the create's index changes.
  const fresh = () => collector.spans.filter((s) => !before.has(s.spanId));
  const traceOf = async (functionName: string) =>
    (
      await until(
        () => fresh().find((s) => s.attributes['faas.name'] === functionName),
        `${functionName} invocation span`,
      )
    ).traceId;
  const traces = await Promise.all(
    ['createEmployee', 'getEmployeeByEmail', 'recordLoginAttempt'].map(traceOf),
  );
  const dependencies = await until(() => {
    const urls = fresh()
      .filter((s) => traces.includes(s.traceId))
      .map((s) => String(s.attributes['url.full'] ?? ''))
      .filter((url) => url !== '');
    const storage = [`/${EMPLOYEES_TABLE}(`, '/LoginAttempts', '(PartitionKey='];
    return storage.every((part) => urls.some((url) => url.includes(part))) ? urls : undefined;
  }, 'storage dependency spans of the three requests');
  expect(dependencies.some((url) => url.includes("RowKey='redacted'"))).toBe(true);
  await until(
    () => fresh().find((s) => s.name === 'directory.outbox.drain'),
    "the create's drain span",
  );
  const exported = JSON.stringify(fresh().map((s) => ({ name: s.name, attributes: s.attributes })));
  for (const secret of secrets) expect(exported).not.toContain(secret);
});

it('prints a one-line metrics summary on SIGUSR2 (--metrics-summary)', async () => {
  host.process.kill('SIGUSR2');
  const [line] = await host.waitForOutput(/^metrics: .*$/m, WAIT_MS);
  expect(line).toMatch(/directory\.drain\.rounds\{outcome=committed\}=\d+/);
  // n:1 or n:2: the writer's host drains 000102 itself unless this host's worker got there first.
  expect(line).toMatch(/directory\.index\.lag\{department=Tracing\}=n:[12],mean:[\d.]+,max:\d+ ms/);
  expect(line.split('\n')).toHaveLength(1);
});
