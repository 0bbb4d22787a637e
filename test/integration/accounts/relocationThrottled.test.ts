/**
 * A relocation whose last sync meets an account held to its target (issue 43, docs/targets.md):
 * the source account behind a targets front at 50 requests/s (Azure's 20,000 ÷ 400) from the
 * freeze on. The sync reads every key written while copying; before each of its reads and writes
 * waited out `ServerBusy` on its own (busyRetry.ts), one read refused past the SDK's retries
 * failed the whole chunk — in production, a rollback. Now the relocation completes and the target
 * holds every write made before the freeze.
 */
import { createServices, type Services } from '../../../functions/shared/services';
import { TargetsLimiter } from '../../../tools/targets/targetsLimiter';
import {
  removeEverywhere,
  spreadConfig,
  spreadPerson,
  spreadSettings,
} from '../../support/accounts';
import {
  frontDataAccounts,
  frontedSettings,
  type FrontedAccount,
} from '../../support/frontedAccounts';
import { relocateInProcess, relocationDeps } from '../../support/relocation';

let fronts: FrontedAccount[];
let settings: Record<string, string>;
let services: Services;

beforeAll(async () => {
  fronts = await frontDataAccounts();
  settings = spreadSettings({ INDEX_DRAIN_LINGER_MS: '1', ...frontedSettings(fronts) });
  const config = spreadConfig(settings);
  services = createServices(() => config);
});
afterAll(async () => {
  for (const f of fronts ?? []) await f.front.stop();
  if (settings) await removeEverywhere(settings);
});

it('completes the last sync on a source account held to 50 requests/s, nothing lost', async () => {
  const department = 'Busy sync';
  const { departments, employees } = services.directory();
  await departments.put(department, { description: department });
  for (let n = 1; n <= 10; n++) await employees.create(department, spreadPerson(n));
  const from = (await services.accounts()!.placement.ofDepartment(department)).account;
  const to = from === 'DATA1' ? 'DATA2' : 'DATA1';
  const source = fronts.find((f) => f.name === from)!.front;
  const limiter = new TargetsLimiter({
    accountRequests: 50,
    partitionEntities: 2_000,
    queueMessages: 2_000,
    blobRequests: 500,
  });
  await relocateInProcess(relocationDeps(services, 20), department, to, async (step, chunk) => {
    if (step === 'copy' && chunk === 1) {
      // Written while copying: every key they touch is read again by the last sync.
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => employees.create(department, spreadPerson(11 + i))),
      );
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          employees.patch(department, String(i + 1).padStart(6, '0'), { lastName: 'Renamed' }),
        ),
      );
    }
    if (step === 'sync' && chunk === 0) source.setTargets(limiter);
    if (step === 'switch') source.setTargets(null);
  });
  source.setTargets(null);
  expect(limiter.throttled().account).toBeGreaterThan(0);
  const placement = await services.accounts()!.placement.ofDepartment(department, { fresh: true });
  expect(placement).toMatchObject({ account: to, phase: 'stable' });
  for (let n = 1; n <= 60; n++) {
    const employee = (await employees.get(department, String(n).padStart(6, '0'))).value;
    expect(employee.lastName).toBe(n <= 10 ? 'Renamed' : `Last${n}`);
  }
}, 180_000);
