"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * Index lag of the inter-partition index (`EmployeeIndex`, docs/queues.md): employees created
 * through the directory service with the `index-updates` queue sink (and pre-write announcements,
 * as the HTTP adapters wire it) at a steady 200 writes/s, while index-updates workers reconcile.
 * Lag = from the create returning (committed, message sent) to the worker having reconciled that
 * employee's `EmployeeIndex` entries; p50/p95 over every write.
 *
 * The workers run in this process (not through the host, so each employee's reconcile time is
 * known exactly without polling the index): two pollers receive up to 16 messages each, handle
 * them in parallel with `handleIndexUpdateMessage` — the queue trigger's own code — and delete
 * them, backing off from 100 ms to 2 s on an empty queue like the host's queue listener.
 * Baseline: the same write load without the queue sink (no asynchronous index at all), to show what
 * the sink adds to the write path.
 */
const directory_1 = require("../../src/directory/directory");
const announcingEmployees_1 = require("../../src/indexing/announcingEmployees");
const indexMessages_1 = require("../../src/indexing/indexMessages");
const indexQueries_1 = require("../../src/indexing/indexQueries");
const indexUpdates_1 = require("../../src/indexing/indexUpdates");
const lastNameStores_1 = require("../../src/indexing/lastNameStores");
const queueChangeSink_1 = require("../../src/indexing/queueChangeSink");
const mapBounded_1 = require("../../src/logins/mapBounded");
const queue_1 = require("../../src/storage/queue");
const harness_1 = require("../harness");
/**
 * Writes are spread over this many departments (10/s each): every create of a department updates
 * its count entity, so 200/s into one department measures that entity's contention, not the index.
 */
const DEPARTMENTS = 20;
const departmentOf = (n) => `Dept${String(n % DEPARTMENTS).padStart(2, '0')}`;
const WRITES_PER_SECOND = 200;
const POLLERS = 2;
const BATCH_SIZE = 16;
const DRAIN_TIMEOUT_MS = 60_000;
const MAX_IN_FLIGHT = 64;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const round2 = (ms) => Math.round(ms * 100) / 100;
function employee(n) {
    const employeeId = String(n).padStart(6, '0');
    return {
        employeeId,
        firstName: `First${n % 500}`,
        lastName: `Surname${String(n % 200).padStart(3, '0')}`,
        email: `employee.${employeeId}@contoso.com`,
    };
}
/**
 * Creates employees 1..`count` at {@link WRITES_PER_SECOND}, without waiting for one write to
 * finish before the next is due; returns per-id commit times and write latencies.
 */
async function steadyWrites(employees, count) {
    // `seconds`: how long issuing took (the offered rate); completion may trail behind.
    const committedAt = new Map();
    const latencies = [];
    const failures = [];
    const inFlight = new Set();
    const interval = 1000 / WRITES_PER_SECOND;
    const started = now();
    for (let i = 0; i < count; i++) {
        // Bounded: when storage falls behind, the offered rate drops instead of sockets piling up.
        while (inFlight.size >= MAX_IN_FLIGHT)
            await Promise.race(inFlight);
        const due = started + i * interval;
        const wait = due - now();
        if (wait > 1)
            await sleep(wait);
        const body = employee(i + 1);
        const key = `${departmentOf(i + 1)}/${body.employeeId}`;
        const sent = now();
        const write = employees.create(departmentOf(i + 1), body).then(() => {
            const done = now();
            committedAt.set(key, done);
            latencies.push(done - sent);
        }, (error) => {
            failures.push(error);
        });
        inFlight.add(write);
        void write.finally(() => inFlight.delete(write));
    }
    const issueSeconds = (now() - started) / 1000;
    await Promise.all(inFlight);
    // A saturated emulator drops the odd connection; a write that failed has no lag to measure, so
    // a few are reported, not fatal.
    if (failures.length > count / 100) {
        throw new Error(`${failures.length} of ${count} creates failed; first: ${String(failures[0])}`);
    }
    return { committedAt, latencies, seconds: issueSeconds, failed: failures.length };
}
/** In-process index-updates workers; `reconciledAt` gets each employee's latest reconcile time. */
function startWorkers(env, stores, queueName) {
    const queue = env.clients.queue(queueName);
    const reconciledAt = new Map();
    let running = true;
    let failures = 0;
    const poller = async () => {
        let idleDelay = 100;
        while (running) {
            let receivedMessageItems;
            try {
                ({ receivedMessageItems } = await queue.receiveMessages({
                    numberOfMessages: BATCH_SIZE,
                    visibilityTimeout: 30,
                }));
            }
            catch {
                failures++;
                await sleep(idleDelay);
                continue;
            }
            if (receivedMessageItems.length === 0) {
                await sleep(idleDelay);
                idleDelay = Math.min(2000, idleDelay * 2);
                continue;
            }
            idleDelay = 100;
            await (0, mapBounded_1.mapBounded)(receivedMessageItems, BATCH_SIZE, async (item) => {
                const payload = (0, queue_1.decodeQueueMessage)(item.messageText);
                try {
                    await (0, indexUpdates_1.handleIndexUpdateMessage)(stores, payload);
                }
                catch {
                    // As the host does: the message reappears after its visibility timeout.
                    failures++;
                    return;
                }
                const done = now();
                for (const change of (0, indexMessages_1.parseIndexUpdateMessage)(payload).changes)
                    reconciledAt.set(`${change.department}/${change.employeeId}`, done);
                await queue.deleteMessage(item.messageId, item.popReceipt).catch(() => {
                    failures++; // redelivered later; reconciling again is harmless
                });
            });
        }
    };
    const pollers = Array.from({ length: POLLERS }, poller);
    return {
        reconciledAt,
        failures: () => failures,
        stop: async () => {
            running = false;
            await Promise.all(pollers);
        },
    };
}
const indexLag = {
    name: 'indexing: inter-partition index lag under 200 writes/s',
    async run(env) {
        const writes = env.size(1000); // 5 s at 200/s: keeps the case under a minute here
        const names = {
            employees: env.uniqueName('IdxBenchEmp', { table: true }),
            index: env.uniqueName('IdxBenchIdx', { table: true }),
            raw: env.uniqueName('IdxBenchRaw', { table: true }),
            queue: env.uniqueName('idx-bench'),
            container: env.uniqueName('idx-bench-ln'),
        };
        const index = env.clients.table(names.index);
        const stores = {
            employees: env.clients.table(names.employees),
            index,
            lastNames: (0, lastNameStores_1.lastNameStoreFor)('entity', index, env.clients.container(names.container)),
        };
        const queue = env.clients.queue(names.queue);
        await (0, queueChangeSink_1.ensureQueue)(queue);
        await index.createTable();
        // As functions/shared/directory.ts wires it: sink + announcements (60 s, never surfacing here).
        const sink = (0, queueChangeSink_1.queueChangeSink)(queue, { announceDelaySeconds: 60 });
        const base = (0, directory_1.createDirectory)({ employees: stores.employees, changes: sink });
        const directory = { ...base, employees: (0, announcingEmployees_1.withAnnouncements)(base.employees, sink) };
        const plain = (0, directory_1.createDirectory)({ employees: env.clients.table(names.raw) });
        for (let d = 0; d < DEPARTMENTS; d++) {
            await directory.departments.put(departmentOf(d), { description: 'Index lag benchmark' });
            await plain.departments.put(departmentOf(d), { description: 'Index lag, no sink' });
        }
        // Baseline first: the same load with no queue sink.
        let baselineLatencies = [];
        let failedWrites = 0;
        const baseline = await env.measure(`service creates at ${WRITES_PER_SECOND}/s, no queue sink (p50/p95 = write latency)`, writes, async () => {
            const load = await steadyWrites(plain.employees, writes);
            baselineLatencies = load.latencies;
            failedWrites += load.failed;
        });
        baseline.p50Ms = round2((0, harness_1.percentile)(baselineLatencies, 50));
        baseline.p95Ms = round2((0, harness_1.percentile)(baselineLatencies, 95));
        const workers = startWorkers(env, stores, names.queue);
        let writeLatencies = [];
        let committed = new Map();
        let achievedRate = 0;
        const lags = [];
        let pattern;
        try {
            pattern = await env.measure(`service creates at ${WRITES_PER_SECOND}/s + queue sink + ${POLLERS} in-process workers (p50/p95 = index lag)`, writes, async () => {
                const load = await steadyWrites(directory.employees, writes);
                writeLatencies = load.latencies;
                committed = load.committedAt;
                failedWrites += load.failed;
                achievedRate = writes / load.seconds;
                const deadline = now() + DRAIN_TIMEOUT_MS;
                const caughtUp = () => [...load.committedAt].every(([id]) => workers.reconciledAt.has(id));
                while (!caughtUp()) {
                    if (now() > deadline)
                        throw new Error(`The index did not catch up within ${DRAIN_TIMEOUT_MS} ms.`);
                    await sleep(20);
                }
                for (const [id, committed] of load.committedAt)
                    lags.push(Math.max(0, workers.reconciledAt.get(id) - committed));
            });
        }
        finally {
            await workers.stop();
        }
        pattern.p50Ms = round2((0, harness_1.percentile)(lags, 50));
        pattern.p95Ms = round2((0, harness_1.percentile)(lags, 95));
        // The index must really be current: spot-check entries by email.
        for (let n = 1; n <= writes; n += Math.max(1, Math.floor(writes / 20))) {
            if (!committed.has(`${departmentOf(n)}/${employee(n).employeeId}`))
                continue; // failed write
            const found = await (0, indexQueries_1.getEmployeeByEmailEventually)(index, departmentOf(n), employee(n).email);
            if (found.value.employeeId !== employee(n).employeeId)
                throw new Error(`Index entry of ${employee(n).email} names the wrong employee.`);
        }
        return {
            name: `index lag, ${writes} creates at ${WRITES_PER_SECOND}/s over ${DEPARTMENTS} departments`,
            pattern,
            baseline,
            goal: 'index lag p95 well under a second at 200 writes/s',
            notes: `offered write rate ${achievedRate.toFixed(0)}/s; failed writes (emulator overload, both sides) ${failedWrites}; index lag p50 ${pattern.p50Ms} ms, p95 ${pattern.p95Ms} ms, ` +
                `max ${round2(Math.max(...lags))} ms (create returned → reconcile finished). ` +
                `Write latency with the sink p50 ${round2((0, harness_1.percentile)(writeLatencies, 50))} ms, ` +
                `p95 ${round2((0, harness_1.percentile)(writeLatencies, 95))} ms (announcement + transaction + change message) vs ` +
                `${baseline.p50Ms}/${baseline.p95Ms} ms without. Requests per write: pattern ` +
                `${(pattern.requests / writes).toFixed(2)} (incl. worker reads/writes and queue traffic), ` +
                `baseline ${(baseline.requests / writes).toFixed(2)}. Workers in-process (2 pollers × 16 messages), ` +
                `not through the host; failed worker calls (retried): ${workers.failures()}.`,
        };
    },
};
exports.default = [indexLag];
//# sourceMappingURL=indexing.js.map