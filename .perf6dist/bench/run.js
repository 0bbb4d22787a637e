"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * `npm run bench [filter...]` (= `node dist/bench/run.js [filter...]` after a build): starts an
 * in-memory Azurite on free ports and a fault proxy in pass-through mode that counts every request,
 * runs the cases in `dist/bench/cases/` one after the other (only those whose name contains one of
 * the filters, when given), prints each pattern beside its baseline and writes
 * `bench/results.json`. Exit code 1 when a case failed or no case matched.
 *
 * Environment: `BENCH_QUICK=1` scales sizes to a tenth; `BENCH_CASE_TIMEOUT_MS` (default 600000)
 * bounds one case; `BENCH_RESULTS` overrides the report's path.
 */
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const config_1 = require("../src/config");
const clients_1 = require("../src/storage/clients");
const azurite_1 = require("../tools/azurite");
const faultProxy_1 = require("../tools/faultProxy");
const harness_1 = require("./harness");
const PROJECT_ROOT = node_path_1.default.resolve(__dirname, '..', '..');
function readTimeout() {
    const raw = process.env.BENCH_CASE_TIMEOUT_MS;
    if (raw === undefined || raw.trim() === '')
        return 600_000;
    if (!/^\d+$/.test(raw.trim()))
        throw new Error(`BENCH_CASE_TIMEOUT_MS must be a whole number of ms, got "${raw}".`);
    return Number(raw);
}
async function main() {
    const filters = process.argv.slice(2).filter((arg) => arg.trim() !== '');
    const quick = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
    const caseTimeoutMs = readTimeout();
    const casesDir = node_path_1.default.join(__dirname, 'cases');
    const resultsFile = node_path_1.default.resolve(process.env.BENCH_RESULTS ?? node_path_1.default.join(PROJECT_ROOT, 'bench', 'results.json'));
    const available = node_fs_1.default.existsSync(casesDir) ? (0, harness_1.loadCases)(casesDir) : [];
    const selected = (0, harness_1.selectCases)(available, filters);
    if (selected.length === 0) {
        const names = available.map((c) => ('benchCase' in c ? c.benchCase.name : c.file));
        process.stderr.write(`No benchmark case matches ${filters.length ? filters.map((f) => `"${f}"`).join(', ') : '(no filter)'}.\n` +
            `Available: ${names.length ? names.join(', ') : `none in ${casesDir}`}\n`);
        return 1;
    }
    const started = Date.now();
    const azurite = await (0, azurite_1.startAzurite)();
    const proxy = await (0, faultProxy_1.startFaultProxy)({ target: azurite.ports });
    const results = [];
    try {
        // Services that use the process-wide clients (getStorageClients) go through the proxy too.
        process.env.AzureWebJobsStorage = proxy.connectionString;
        (0, config_1.resetConfig)();
        (0, clients_1.resetStorageClients)();
        const config = (0, config_1.loadConfig)(process.env);
        const env = (0, harness_1.createBenchEnv)({
            clients: (0, clients_1.createStorageClients)(config.storage, config.retry),
            proxy,
            directConnectionString: azurite.connectionString,
            quick,
        });
        process.stdout.write(`Benchmarks on Azurite (in memory) through a counting proxy; ${selected.length} case(s)` +
            `${quick ? ', quick sizes (BENCH_QUICK)' : ''}.\n\n`);
        for (const loaded of selected) {
            const name = 'benchCase' in loaded ? loaded.benchCase.name : loaded.file;
            process.stdout.write(`… ${name}\n`);
            const result = await (0, harness_1.runCase)(loaded, env, caseTimeoutMs);
            results.push(result);
            process.stdout.write(`${result.status === 'passed' ? '✓' : '✗'} ${name} (${(result.durationMs / 1000).toFixed(1)} s)\n`);
        }
    }
    finally {
        await proxy.stop();
        await azurite.stop();
    }
    process.stdout.write(`\n${(0, harness_1.formatReport)(results)}\n`);
    const report = (0, harness_1.buildReport)(results, { quick, filters, durationMs: Date.now() - started });
    node_fs_1.default.mkdirSync(node_path_1.default.dirname(resultsFile), { recursive: true });
    node_fs_1.default.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`Results written to ${node_path_1.default.relative(process.cwd(), resultsFile) || resultsFile}\n`);
    return results.some((r) => r.status === 'failed') ? 1 : 0;
}
main().then((code) => process.exit(code), (error) => {
    process.stderr.write(`Benchmark run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=run.js.map