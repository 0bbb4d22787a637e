/**
 * Relocating a department online (docs/accounts.md): the relocation's own steps, run in-process,
 * with a write held in flight — after it read its placement and built its transaction, just before
 * it reaches storage — at each step: before the copy, between chunks, at the freeze, during the
 * last sync, at the switch, during the source's deletion. Every acknowledged write ends up in the
 * target exactly once, every refused one (503 `Relocating`) nowhere, the indexes agree with the
 * directory, and the source keeps nothing but its fence tombstones.
 */
import { createServices, type Services } from '../../../functions/shared/services';
import { ConflictError, NotFoundError, ThrottledError } from '../../../src/domainErrors';
import { findEmployeesAcrossOrganisation } from '../../../src/indexing/employeeIndex/indexQueries';
import { photoReadUrl, uploadPhoto } from '../../../src/photos/photos';
import type { StorageClients } from '../../../src/storage/clients';
import { FENCE_EPOCH_ROW_KEY } from '../../../src/storage/keys/tables/placement';
import {
  readRowPage,
  relocationSources,
  targetRow,
  upsertRows,
} from '../../../src/accounts/relocation/relocationRows';
import { deleteChunk } from '../../../src/accounts/relocation/relocationDelete';
import { startRelocation } from '../../../src/accounts/relocation/relocationSteps';
import {
  accountClients,
  removeEverywhere,
  spreadConfig,
  spreadSettings,
  spreadPerson,
  otherDataAccount,
} from '../../support/accounts';
import { holdFirstBatch } from '../../support/batchGate';
import { holdFirstRequest } from '../../support/requestGate';
import { pngImage } from '../../support/images';
import { auditIndexesInProcess, auditServicesFor, driftOf } from '../../support/indexAudit';
import { relocateInProcess, relocationDeps, type RelocationStep } from '../../support/relocation';

const settings = spreadSettings({ INDEX_DRAIN_LINGER_MS: '1' });
const config = spreadConfig(settings);
// Another process, whose placement cache keeps what it read for a minute.
const staleConfig = spreadConfig({ ...settings, PLACEMENT_CACHE_SECONDS: '60' });
let services: Services;

beforeAll(() => {
  services = createServices(() => config);
});
afterAll(() => removeEverywhere(settings));

function clientsOf(name: string): StorageClients {
  const all = accountClients();
  return name === 'DATA1' ? all.data1 : name === 'DATA2' ? all.data2 : all.home;
}

/** A department with employees, reviews, a manager, expenses, message counts and a photo. */
async function seed(department: string, employees = 30): Promise<string> {
  const { departments, employees: people, reviews } = services.directory();
  await departments.put(department, { description: `${department} team` });
  for (let n = 1; n <= employees; n++)
    await people.create(department, spreadPerson(n, n % 3 ? `Last${n}` : 'Jones'));
  await departments.setManager(department, '000001');
  await reviews.put(department, '000002', 2024, {
    managerRating: 4,
    peerRating: 5,
    comments: 'ok',
  });
  await services
    .expenseClaims()
    .submit(department, '000003', { amount: 10, currency: 'EUR', description: 'Lunch' });
  await services.messageStats().record(department, '000004', { count: 2 });
  await uploadPhoto(
    await services.photosFor(department),
    department,
    '000005',
    pngImage(),
    'image/png',
  );
  await services.changeQueue().settled();
  return (await services.accounts()!.placement.ofDepartment(department)).account;
}

/** Every row the department has left in an account (by table). */
async function rowsIn(account: string, department: string): Promise<Record<string, string[]>> {
  const clients = clientsOf(account);
  const found: Record<string, string[]> = {};
  const { tables } = config;
  for (const table of [
    tables.employees,
    tables.archive,
    tables.employeeIndex,
    tables.expenses,
    tables.messageStats,
  ]) {
    for await (const row of clients.table(table).listEntities()) {
      const pk = String(row.partitionKey);
      if (pk === department || pk.endsWith(`_${department}`) || pk.startsWith(`${department}_`)) {
        (found[table] ??= []).push(`${pk}|${row.rowKey}`);
      }
    }
  }
  return found;
}

async function drainAndAudit(department: string): Promise<string[]> {
  await services.changeQueue().settled();
  await services.indexDrains().request(department);
  return driftOf(await auditIndexesInProcess(auditServicesFor(services.indexStores())));
}

it('moves every row, index and photo of a department to the target; the source keeps only tombstones', async () => {
  const from = await seed('Sales');
  const to = otherDataAccount(from);
  const { plan, copied } = await relocateInProcess(relocationDeps(services), 'Sales', to);
  expect(copied).toBeGreaterThan(60);
  expect(await services.accounts()!.placement.ofDepartment('Sales', { fresh: true })).toMatchObject(
    {
      account: to,
      version: plan.version + 2,
      phase: 'stable',
    },
  );
  const { departments, employees, reviews } = services.directory();
  expect((await departments.get('Sales')).value).toMatchObject({
    employeeCount: 30,
    manager: { employeeId: '000001' },
  });
  expect((await reviews.list('Sales', '000002')).items).toHaveLength(1);
  expect(await services.expenseClaims().newest('Sales', '000003', 10)).toHaveLength(1);
  const year = new Date().getUTCFullYear();
  const daily = await services.messageStats().daily('Sales', '000004', year);
  expect(daily.reduce((a, b) => a + b, 0)).toBe(2);
  // The photo moved with the employee, and its URL names the target account.
  const photo = await photoReadUrl(await services.photosFor('Sales'), 'Sales', '000005');
  expect(photo.url).toContain(to === 'DATA1' ? '/data1account/' : '/data2account/');
  expect((await fetch(photo.url)).status).toBe(200);
  expect((await employees.get('Sales', '000005')).value.photoUrl).toContain(
    to === 'DATA1' ? '/data1account/' : '/data2account/',
  );
  // The org-wide search finds them in the target.
  const stores = services.indexStores();
  const jones = await findEmployeesAcrossOrganisation(stores.employees, stores.lastNames, 'jones');
  expect(jones.items).toHaveLength(10);
  expect(await drainAndAudit('Sales')).toEqual([]);
  // The source keeps one closed fence epoch per partition, nothing else.
  const left = Object.values(await rowsIn(from, 'Sales')).flat();
  expect(left.length).toBeGreaterThan(0);
  expect(left.every((key) => key.endsWith(`|${FENCE_EPOCH_ROW_KEY}`))).toBe(true);
});

/** What the write in flight did. */
type Outcome = { applied: true } | { applied: false; code: string };

async function settle(write: Promise<unknown>): Promise<Outcome> {
  try {
    await write;
    return { applied: true };
  } catch (error) {
    if (error instanceof ThrottledError) return { applied: false, code: error.code };
    throw error;
  }
}

it.each<[RelocationStep, number, 'relocating' | 'stale', Outcome['applied']]>([
  // A process that read the placement before the relocation: its transaction carries the old
  // version; the fence refuses it once, it reads the placement again and writes with a marker.
  ['fence', 0, 'stale', true],
  // Between two copy chunks, once the department's partition was copied (chunks 1-4): the
  // transaction records its keys; the last sync copies them again.
  ['copy', 6, 'relocating', true],
  // The same, from the process that read the placement before: refused by the fence once, it
  // reads `copying` and writes again, recording its keys.
  ['copy', 7, 'stale', true],
  // At the freeze: the partition closes under it; it reads `frozen` and answers 503.
  ['freeze', 0, 'relocating', false],
  // During the last sync, from a process that still believes the department is being copied.
  ['sync', 0, 'stale', false],
  // At the switch, from that same process: the source is closed, 503.
  ['switch', 0, 'stale', false],
  // During the source's deletion, from that same process: still closed, 503.
  ['delete', 1, 'stale', false],
])(
  'a write in flight at step %s (chunk %d, %s process) is applied once or refused, never lost',
  async (step, chunk, writer, applied) => {
    const department = `Reloc ${step} ${chunk}`;
    const from = await seed(department, 12);
    const to = otherDataAccount(from);
    // Another process, which read the placement before the relocation started (and keeps it).
    const stale = createServices(() => staleConfig);
    await stale.directory().employees.get(department, '000001');
    const writing = writer === 'stale' ? stale : services;
    // The write in flight, held just before its transaction reaches storage, and its outcome.
    let held: { release: () => void; outcome: Promise<Outcome> } | undefined;
    let result: Outcome | undefined;
    await relocateInProcess(relocationDeps(services, 10), department, to, async (at, index) => {
      if (held) {
        // The step it waited at has run: let it go on, and see what became of it.
        held.release();
        result = await held.outcome;
        held = undefined;
      }
      if (writer === 'stale' && step !== 'fence' && at === 'fence') {
        // The other process reads the placement again once the relocation has begun.
        stale.accounts()!.placement.forget(department);
        expect((await stale.accounts()!.placement.ofDepartment(department)).phase).toBe('copying');
      }
      if (at !== step || index !== chunk) return;
      const raw = writing.accounts()!.accounts.require(from).clients.table(config.tables.employees);
      const gate = holdFirstBatch(raw, (text) => text.includes('"LastName":"Moved"'));
      const outcome = settle(
        writing.directory().employees.patch(department, '000007', { lastName: 'Moved' }),
      );
      await gate.reached;
      held = { release: gate.release, outcome };
    });
    expect(result).toBeDefined();
    expect(result!.applied).toBe(applied);
    if (!result!.applied) expect(result!.code).toBe('Relocating');
    const employee = (await services.directory().employees.get(department, '000007')).value;
    expect(employee.lastName).toBe(applied ? 'Moved' : 'Last7');
    // A refused write goes through once the department has moved.
    if (!applied) {
      await services.directory().employees.patch(department, '000007', { lastName: 'Moved' });
    }
    expect((await services.directory().departments.get(department)).value.employeeCount).toBe(12);
    expect(await drainAndAudit(department)).toEqual([]);
    const stores = services.indexStores();
    const moved = await findEmployeesAcrossOrganisation(
      stores.employees,
      stores.lastNames,
      'moved',
    );
    expect(moved.items.map((e) => `${e.department}/${e.employeeId}`)).toContain(
      `${department}/000007`,
    );
    const left = Object.values(await rowsIn(from, department)).flat();
    expect(left.every((key) => key.endsWith(`|${FENCE_EPOCH_ROW_KEY}`))).toBe(true);
  },
);

it('an expense claimed while its table is copied reaches the target once (registered, marked, synced)', async () => {
  const department = 'Reloc expenses';
  const from = await seed(department, 6);
  const to = otherDataAccount(from);
  const stale = createServices(() => staleConfig);
  await stale.expenseClaims().newest(department, '000003', 1);
  let claimed = 0;
  const sources = relocationSources(config.tables, department);
  const past = sources.findIndex((s) => s.kind === 'employees' && s.code === 'expenses') + 1;
  await relocateInProcess(relocationDeps(services, 5), department, to, async (step, _i, _p, at) => {
    // Once the expenses table was copied: one claim from each process.
    if (step !== 'copy' || at?.source !== past || at.token !== undefined || claimed > 0) return;
    for (const writer of [services, stale]) {
      await writer
        .expenseClaims()
        .submit(department, '000006', { amount: 5, currency: 'EUR', description: 'Late' });
      claimed++;
    }
  });
  expect(claimed).toBe(2);
  expect(await services.expenseClaims().newest(department, '000006', 10)).toHaveLength(2);
  expect(await services.expenseClaims().newest(department, '000003', 10)).toHaveLength(1);
  const left = Object.values(await rowsIn(from, department)).flat();
  expect(left.every((key) => key.endsWith(`|${FENCE_EPOCH_ROW_KEY}`))).toBe(true);
});

/** Makes the storage requests of every account's tables fail after `after` of them went through. */
async function crashing(call: () => Promise<unknown>, after = 2): Promise<void> {
  const name = `crash-${Math.random().toString(36).slice(2)}`;
  let sent = 0;
  const pipelines = services
    .accounts()!
    .accounts.all.flatMap((account) =>
      Object.values(config.tables).map((table) => account.clients.table(table).pipeline),
    );
  for (const pipeline of new Set(pipelines)) {
    pipeline.addPolicy({
      name,
      async sendRequest(request, next) {
        if (++sent > after) throw new Error('crash: the activity died here');
        return next(request);
      },
    });
  }
  try {
    await call();
  } catch (error) {
    if (!String(error).includes('crash')) throw error;
  } finally {
    for (const pipeline of new Set(pipelines)) pipeline.removePolicy({ name });
  }
}

it.each<[RelocationStep, number]>([
  ['fence', 0],
  ['copy', 3],
  ['freeze', 0],
  ['sync', 0],
  ['switch', 0],
  ['delete', 2],
])(
  'a crash partway through step %s (chunk %d) resumes: the step runs again',
  async (step, chunk) => {
    const department = `Crash ${step}`;
    const from = await seed(department, 8);
    const to = otherDataAccount(from);
    let wrote = false;
    await relocateInProcess(
      relocationDeps(services, 10),
      department,
      to,
      async (at, index) => {
        // A write while copying, so the last sync has work to redo too.
        if (at === 'copy' && index === 2 && !wrote) {
          wrote = true;
          await services.directory().employees.patch(department, '000008', { lastName: 'Synced' });
        }
      },
      { crashAt: (at, index) => at === step && index === chunk, crash: crashing },
    );
    expect(
      await services.accounts()!.placement.ofDepartment(department, { fresh: true }),
    ).toMatchObject({ account: to, phase: 'stable' });
    expect((await services.directory().departments.get(department)).value.employeeCount).toBe(8);
    expect((await services.directory().employees.get(department, '000008')).value.lastName).toBe(
      'Synced',
    );
    expect(await drainAndAudit(department)).toEqual([]);
    const left = Object.values(await rowsIn(from, department)).flat();
    expect(left.every((key) => key.endsWith(`|${FENCE_EPOCH_ROW_KEY}`))).toBe(true);
  },
);

describe('two relocations of one department', () => {
  /** Every employee of the department answers, and the count, the indexes and the search agree. */
  async function expectWhole(department: string, ids: number[]): Promise<void> {
    const { departments, employees } = services.directory();
    expect((await departments.get(department)).value.employeeCount).toBe(ids.length);
    for (const n of ids) {
      expect((await employees.get(department, String(n).padStart(6, '0'))).value.firstName).toBe(
        `First${n}`,
      );
    }
    expect(await drainAndAudit(department)).toEqual([]);
  }
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('a relocation back is refused while the first still deletes its source, then keeps every employee', async () => {
    const department = 'Twice refused';
    const from = await seed(department, 12);
    const to = otherDataAccount(from);
    const deps = relocationDeps(services, 10);
    const answers: unknown[] = [];
    await relocateInProcess(deps, department, to, async (step, chunk) => {
      // Switched and waiting to delete the source (chunk 0), and midway through deleting it.
      if (step !== 'delete' || (chunk !== 0 && chunk !== 2)) return;
      answers.push(await startRelocation(deps, department, from, 'second').catch((e) => e));
    });
    expect(
      answers.map((answer) => [answer instanceof ConflictError, (answer as ConflictError).code]),
    ).toEqual([
      [true, 'RelocationRunning'],
      [true, 'RelocationRunning'],
    ]);
    // Released once the source is deleted: the relocation back is accepted and loses nothing.
    expect(
      await services.accounts()!.placement.ofDepartment(department, { fresh: true }),
    ).toMatchObject({ account: to, phase: 'stable' });
    await relocateInProcess(deps, department, from);
    await expectWhole(department, range(1, 12));
    const left = Object.values(await rowsIn(to, department)).flat();
    expect(left.every((key) => key.endsWith(`|${FENCE_EPOCH_ROW_KEY}`))).toBe(true);
  });

  it('a deletion chunk held while the department moves back into its account deletes nothing', async () => {
    const department = 'Twice held';
    const from = await seed(department, 12);
    const to = otherDataAccount(from);
    const deps = relocationDeps(services, 10);
    // The first delete chunk runs twice (an activity executed again while the first run hung), in
    // two other processes: one held before it read its page, one just before its deletions.
    const late = [createServices(() => config), createServices(() => config)];
    const sourceTable = (s: Services) =>
      s.accounts()!.accounts.require(from).clients.table(config.tables.employees);
    const beforePage = holdFirstRequest(sourceTable(late[0]!), (r) => r.method === 'GET');
    const beforeDelete = holdFirstBatch(sourceTable(late[1]!), (body) => body.includes('DELETE '));
    let runs: Promise<unknown>[] = [];
    let outcomes: unknown[] = [];
    await relocateInProcess(deps, department, to, async (step, chunk, plan, cursor) => {
      if (step !== 'delete' || chunk !== 0) return;
      runs = late.map((s) => deleteChunk(relocationDeps(s, 10), plan, cursor));
      await Promise.all([beforePage.reached, beforeDelete.reached]);
    });
    // The relocation back has copied everything into the first account when the late runs go on.
    await relocateInProcess(deps, department, from, async (step) => {
      if (step !== 'freeze' || runs.length === 0) return;
      beforePage.release();
      beforeDelete.release();
      outcomes = await Promise.all(runs);
      runs = [];
    });
    await expectWhole(department, range(1, 12));
    // Each late run stopped without deleting.
    expect(outcomes).toEqual([
      { next: undefined, rows: 0 },
      { next: undefined, rows: 0 },
    ]);
  });

  it('a relocation back removes what the target still held of the department: nothing is revived', async () => {
    const department = 'Twice leftovers';
    const from = await seed(department, 12);
    const to = otherDataAccount(from);
    const deps = relocationDeps(services, 10);
    // The department's rows in the first account, as a deletion that gave up would leave them.
    const fromClients = clientsOf(from);
    const leftovers = [];
    for (const source of relocationSources(config.tables, department)) {
      if (source.kind === 'photos') continue;
      const table = fromClients.table(source.table);
      const page = await readRowPage(table, source, department, undefined, 1000);
      expect(page.next).toBeUndefined();
      leftovers.push({ table, rows: page.rows.map((row) => targetRow(row, (url) => url)) });
    }
    await relocateInProcess(deps, department, to);
    for (const { table, rows } of leftovers) await upsertRows(table, rows);
    // Meanwhile, in the new account: one employee leaves, another changes.
    await services.directory().employees.delete(department, '000009');
    await services.directory().employees.patch(department, '000010', { lastName: 'Renamed' });
    await relocateInProcess(deps, department, from);
    await expect(services.directory().employees.get(department, '000009')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await services.directory().employees.get(department, '000010')).value.lastName).toBe(
      'Renamed',
    );
    await expectWhole(department, [...range(1, 8), ...range(10, 12)]);
  });
});
