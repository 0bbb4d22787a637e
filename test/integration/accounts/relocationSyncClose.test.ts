/**
 * The last sync closes each per-employee partition written while copying (relocationSync.ts):
 * the freeze closes only the department's fixed partitions, so a process that still trusts its
 * `copying` placement — and has already registered the partition, so it writes nothing to the
 * department's own partition first — would otherwise write there after the sync read its change
 * markers: acknowledged, never copied, and deleted with the source. Held in flight from before the
 * sync to after it, that write is refused with 503 `Relocating` instead.
 */
import { createServices, type Services } from '../../../functions/shared/services';
import { ThrottledError } from '../../../src/domainErrors';
import {
  removeEverywhere,
  spreadConfig,
  spreadSettings,
  spreadPerson,
} from '../../support/accounts';
import { holdFirstBatch } from '../../support/batchGate';
import { relocateInProcess, relocationDeps } from '../../support/relocation';

const settings = spreadSettings({ INDEX_DRAIN_LINGER_MS: '1' });
const config = spreadConfig(settings);
// Another process, whose placement cache keeps what it read for a minute.
const staleConfig = spreadConfig({ ...settings, PLACEMENT_CACHE_SECONDS: '60' });
let services: Services;

beforeAll(() => {
  services = createServices(() => config);
});
afterAll(() => removeEverywhere(settings));

it('a claim by a process still copying, held across the sync, is refused, not acknowledged and lost', async () => {
  const department = 'Sync close';
  const { departments, employees } = services.directory();
  await departments.put(department, { description: department });
  for (let n = 1; n <= 6; n++) {
    await employees.create(department, spreadPerson(n));
  }
  const from = (await services.accounts()!.placement.ofDepartment(department)).account;
  const to = from === 'DATA1' ? 'DATA2' : 'DATA1';
  const stale = createServices(() => staleConfig);
  const claim = (description: string) =>
    stale.expenseClaims().submit(department, '000006', { amount: 5, currency: 'EUR', description });
  let held: { release: () => void; outcome: Promise<unknown> } | undefined;
  let outcome: unknown;
  await relocateInProcess(relocationDeps(services, 10), department, to, async (step, chunk) => {
    if (step === 'copy' && chunk === 1) {
      // The other process reads `copying` (and keeps it), then claims: registered and marked.
      stale.accounts()!.placement.forget(department);
      expect((await stale.accounts()!.placement.ofDepartment(department)).phase).toBe('copying');
      await claim('While copying');
    }
    if (step === 'sync' && chunk === 0) {
      // Frozen now; its next claim is held just before it reaches storage, until the sync ran.
      const raw = stale.accounts()!.accounts.require(from).clients.table(config.tables.expenses);
      const gate = holdFirstBatch(raw, (body) => body.includes('Held across the sync'));
      const pending = claim('Held across the sync').then(
        () => 'acknowledged',
        (error: unknown) => error,
      );
      await gate.reached;
      held = { release: gate.release, outcome: pending };
    }
    if (step === 'switch' && held) {
      held.release();
      outcome = await held.outcome;
      held = undefined;
    }
  });
  expect(outcome).toBeInstanceOf(ThrottledError);
  expect((outcome as ThrottledError).code).toBe('Relocating');
  const claims = await services.expenseClaims().newest(department, '000006', 10);
  expect(claims.map((c) => c.description)).toEqual(['While copying']);
});
