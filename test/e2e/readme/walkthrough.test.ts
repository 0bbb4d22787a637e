/**
 * The README's "first five minutes", run as a newcomer runs it: its bash blocks, in order, in one
 * bash session in the project folder (so `npm run principal` works), against a started host —
 * `http://localhost:7071` becomes this host's address, nothing else of the text changes — and each
 * step's output held against the output block the README shows after it (test/support/
 * walkthrough.ts: `…` where runs differ). The host gets tables, queues and containers of its own,
 * all new, so the walkthrough meets what a fresh `npm start` has: no department, no photos
 * container. Answers name those unique names and the test emulator's address where a fresh
 * `npm start` would show the defaults; they are mapped back before comparing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';
import { uniqueName, uniqueTableName } from '../../support/storage';
import { outputMismatch, walkthroughSteps } from '../../support/walkthrough';

/** Each setting the walkthrough's data lives in: a fresh name, and the default a newcomer sees. */
const FRESH: Record<string, { name: string; shown: string }> = {
  EMPLOYEES_TABLE: { name: uniqueTableName('Emp'), shown: 'Employees' },
  ARCHIVE_TABLE: { name: uniqueTableName('Arc'), shown: 'EmployeesArchive' },
  EMPLOYEE_INDEX_TABLE: { name: uniqueTableName('Idx'), shown: 'EmployeeIndex' },
  EXPENSES_TABLE: { name: uniqueTableName('Exp'), shown: 'EmployeeExpenses' },
  MESSAGE_STATS_TABLE: { name: uniqueTableName('Msg'), shown: 'MessageStats' },
  ACCESS_LOG_TABLE: { name: uniqueTableName('Acc'), shown: 'AccessLog' },
  OPERATIONS_TABLE: { name: uniqueTableName('Ops'), shown: 'OperationsStatus' },
  LASTNAME_INDEX_CONTAINER: { name: uniqueName('lastname'), shown: 'lastname-index' },
  PHOTOS_CONTAINER: { name: uniqueName('photos'), shown: 'photos' },
  LOGS_CONTAINER: { name: uniqueName('logs'), shown: 'logs' },
};

/** The blob endpoint a fresh `npm start` has (Azurite on its standard port). */
const STANDARD_BLOB_ENDPOINT = 'http://127.0.0.1:10000/devstoreaccount1';

function testBlobEndpoint(): string {
  const match = /BlobEndpoint=([^;]+)/.exec(process.env.AzureWebJobsStorage ?? '');
  if (!match) throw new Error('The test storage connection string names no BlobEndpoint.');
  return match[1]!.replace(/\/+$/, '');
}

/** What a fresh `npm start` would have printed instead. */
function asShownInReadme(output: string): string {
  let text = output.split(testBlobEndpoint()).join(STANDARD_BLOB_ENDPOINT);
  for (const { name, shown } of Object.values(FRESH)) text = text.split(name).join(shown);
  return text;
}

function runBash(
  script: string,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd: PROJECT_ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let host: RunningHost;
beforeAll(async () => {
  host = await startHost({
    env: Object.fromEntries(Object.entries(FRESH).map(([setting, { name }]) => [setting, name])),
  });
});
afterAll(async () => {
  await host?.stop();
});

it('runs the README walkthrough on a fresh host and prints what the README shows', async () => {
  const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const steps = walkthroughSteps(readme);
  const marker = (index: number): string => `@@walkthrough step ${index} done@@`;
  const script = [
    'set -eo pipefail',
    ...steps.map(
      (step) =>
        `${step.commands.split('http://localhost:7071').join(host.origin)}\n` +
        `printf '\\n${marker(step.index)}\\n'`,
    ),
  ].join('\n');

  const { code, stdout, stderr } = await runBash(script, 200_000);

  const problems: string[] = [];
  let rest = stdout;
  for (const step of steps) {
    const at = rest.indexOf(marker(step.index));
    if (at < 0) {
      problems.push(
        `step ${step.index} did not finish (bash exited ${code}):\n${step.commands}\n` +
          `stdout:\n${rest}\nstderr:\n${stderr}`,
      );
      break;
    }
    const printed = asShownInReadme(rest.slice(0, at));
    rest = rest.slice(at + marker(step.index).length);
    const problem = step.expected && outputMismatch(step.expected, printed);
    if (problem) {
      problems.push(`step ${step.index}:\n${step.commands}\nprinted:\n${printed}\n${problem}`);
    }
  }
  expect(problems).toEqual([]);
  expect(code).toBe(0);
}, 240_000);
