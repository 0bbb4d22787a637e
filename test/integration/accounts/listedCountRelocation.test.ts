/**
 * The listed employee count with data spread over accounts: the listing lives in the home account,
 * the department's count shards in its data account, and the drain that refreshes the count
 * writes it home. A relocation moves the department, never its listing: the count survives it,
 * and writes made while it copies and after its switch still reach the listed count.
 */
import { createDirectory, type Directory } from '../../../src/directory/directory';
import { handleIndexUpdateMessage } from '../../../src/indexing/queue/indexUpdates';
import { decodeQueueMessage } from '../../../src/storage/queue';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
} from '../../../src/storage/keys/tables/employees';
import { readEntity } from '../../../src/storage/tables/entities';
import {
  accountClients,
  otherDataAccount,
  spreadDeployment,
  spreadPerson,
} from '../../support/accounts';
import { relocateInProcess, relocationDeps } from '../../support/relocation';
import { WAIT_MS } from '../../support/waits';

const { config, services } = spreadDeployment({ INDEX_DRAIN_LINGER_MS: '1' });

/** A reader without a cached page. */
const reader = (): Directory =>
  createDirectory({ employees: services.indexStores().employees, departmentCacheTtlMs: 0 });

async function listedCount(department: string): Promise<number | undefined> {
  const page = await reader().departments.list({ pageSize: 1000 });
  return page.items.find((d) => d.name === department)?.employeeCount;
}

/** The queue worker, once: handles what `index-updates` holds now (a writer's hand-overs). */
async function work(): Promise<void> {
  const queue = services.clients().queue(config.queues.indexUpdates);
  const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 32 });
  for (const item of receivedMessageItems) {
    await handleIndexUpdateMessage(services.indexDrains(), decodeQueueMessage(item.messageText));
    await queue.deleteMessage(item.messageId, item.popReceipt);
  }
}

/**
 * The listed count once it equals the exact one (eventually consistent: a burst's later writes
 * are refreshed a few seconds after its first, a writer's hand-over by the queue worker), or the
 * last one seen.
 */
async function convergedCount(department: string): Promise<number | undefined> {
  const exact = (await reader().departments.get(department)).value.employeeCount;
  const deadline = Date.now() + WAIT_MS;
  let listed = await listedCount(department);
  while (listed !== exact && Date.now() < deadline) {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 250));
    listed = await listedCount(department);
  }
  return listed;
}

it('keeps the listed count in home, refreshed from the data account, through a relocation', async () => {
  const { departments, employees } = services.directory();
  await departments.put('Sales', {});
  for (const n of [1, 2, 3]) await employees.create('Sales', spreadPerson(n));
  await services.changeQueue().settled();
  expect(await listedCount('Sales')).toBe(3);

  // The listing is home's; the count shards are in the data account that holds Sales.
  const from = (await services.accounts()!.placement.ofDepartment('Sales')).account;
  const homeEmployees = accountClients().home.table(config.tables.employees);
  const listing = await readEntity(
    homeEmployees,
    DEPARTMENT_LIST_PARTITION_KEY,
    departmentListRowKey('Sales'),
  );
  expect(listing?.EmployeeCount).toBe(3);

  const to = otherDataAccount(from);
  // Writes while the department is copied (they reach the target through the last sync).
  await relocateInProcess(relocationDeps(services), 'Sales', to, async (step, chunk) => {
    if (step === 'copy' && chunk === 1) {
      await employees.create('Sales', spreadPerson(4));
      await employees.create('Sales', spreadPerson(7));
      await employees.delete('Sales', '000001');
      await services.changeQueue().settled();
    }
  });
  expect((await services.accounts()!.placement.ofDepartment('Sales')).account).toBe(to);
  expect(await convergedCount('Sales')).toBe(4);

  // After the switch: the target's drains refresh the same listing.
  for (const n of [5, 6]) await employees.create('Sales', spreadPerson(n));
  await services.changeQueue().settled();
  expect((await reader().departments.get('Sales')).value.employeeCount).toBe(6);
  expect(await convergedCount('Sales')).toBe(6);
});
