/**
 * Incarnations (docs/queues.md "Incarnations"): a request is bound to the employee it was accepted
 * for. A redelivered archive message, a re-run move or department-archive activity finds the
 * employee created again with the same id — another incarnation — and touches nothing.
 */
import type { QueueClient } from '@azure/storage-queue';
import { archiveEmployee, getArchivedEmployee } from '../../../src/archive/archiveEmployee';
import {
  parseArchiveRequest,
  requestArchive,
  requestedIncarnation,
} from '../../../src/archive/archiveRequests';
import { archiveEmployeeChunkActivity } from '../../../src/orchestrations/archive/archiveActivities';
import {
  copyToTargetActivity,
  removeFromSourceActivity,
  validateMoveActivity,
} from '../../../src/orchestrations/move/moveActivities';
import type { CopyResult } from '../../../src/orchestrations/move/copyToTarget';
import type { MoveInput } from '../../../src/orchestrations/move/moveRequest';
import type { MovePlan } from '../../../src/orchestrations/move/moveSteps';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { archiveRowKey, LEGACY_INCARNATION } from '../../../src/storage/keys/tables/archive';
import { uniqueName } from '../../support/storage';
import { createIndexingFixture, type IndexingFixture } from '../indexing/fixture';
import { createWorld, type TestWorld } from '../orchestrations/support';

const JO = { employeeId: '000223', firstName: 'Jo', lastName: 'Jones', email: 'jo@contoso.com' };
const JOSE = {
  employeeId: '000223',
  firstName: 'Jose',
  lastName: 'Diaz',
  email: 'jose@contoso.com',
};

describe('archive-requests messages', () => {
  let fx: IndexingFixture;
  let queue: QueueClient;
  beforeEach(async () => {
    fx = createIndexingFixture();
    queue = fx.clients.queue(uniqueName('archivereq'));
    await fx.directory.departments.put('Sales', {});
  });
  afterEach(async () => {
    await queue.deleteIfExists();
    await fx.cleanup();
  });

  const archive = () => fx.clients.table(fx.names.archive);
  const deps = () => ({
    employees: fx.stores.employees,
    archive: archive(),
    directory: fx.directory.employees,
  });
  /** What the queue trigger does with one delivery (functions/archive.ts `archiveWorker`). */
  const deliver = (payload: unknown) => {
    const message = parseArchiveRequest(payload);
    return archiveEmployee(deps(), message.department, message.employeeId, {
      incarnation: requestedIncarnation(message),
    });
  };
  /** Accepts `POST .../archive` and takes the message it enqueued off the queue. */
  async function acceptArchive(employeeId: string): Promise<unknown> {
    await requestArchive(fx.stores.employees, queue, 'Sales', employeeId);
    const [received] = (await queue.receiveMessages()).receivedMessageItems;
    await queue.deleteMessage(received!.messageId, received!.popReceipt);
    return decodeQueueMessage(received!.messageText);
  }
  async function storedIncarnation(employeeId: string): Promise<unknown> {
    const entity = await fx.stores.employees.getEntity('Sales', `empid_${employeeId}`);
    return entity.Incarnation;
  }
  /** Turns a stored employee into one written before incarnations (no `Incarnation`). */
  async function makeLegacy(employeeId: string): Promise<void> {
    const {
      etag: _e,
      timestamp: _t,
      Incarnation: _i,
      ...entity
    } = await fx.stores.employees.getEntity<Record<string, unknown>>(
      'Sales',
      `empid_${employeeId}`,
    );
    await fx.stores.employees.updateEntity(
      { ...entity, partitionKey: 'Sales', rowKey: `empid_${employeeId}` },
      'Replace',
    );
  }

  it('a message redelivered after the employee was archived and created again touches neither', async () => {
    await fx.directory.employees.create('Sales', JO);
    const message = await acceptArchive('000223');
    expect(message).toEqual({
      v: 2,
      department: 'Sales',
      employeeId: '000223',
      incarnation: await storedIncarnation('000223'),
    });
    expect((await deliver(message)).outcome).toBe('archived');
    const firstRecord = await getArchivedEmployee(archive(), 'Sales', '000223');

    const recreated = await fx.directory.employees.create('Sales', JOSE);
    // The host crashed before deleting the message: the same request is delivered again.
    expect(await deliver(message)).toEqual({
      outcome: 'superseded',
      incarnation: (message as { incarnation: string }).incarnation,
    });
    const current = await fx.directory.employees.get('Sales', '000223');
    expect(current.value).toEqual(recreated.value);
    expect(current.etag).toBe(recreated.etag);
    expect(await getArchivedEmployee(archive(), 'Sales', '000223')).toEqual(firstRecord);
  });

  it('archives both incarnations, each in its own record; GET answers the newest', async () => {
    await fx.directory.employees.create('Sales', JO);
    const first = await acceptArchive('000223');
    await deliver(first);
    await fx.directory.employees.create('Sales', JOSE);
    const second = await acceptArchive('000223');
    expect(second).not.toEqual(first);
    expect((await deliver(second)).outcome).toBe('archived');
    expect((await deliver(first)).outcome).toBe('alreadyArchived');

    const records = [];
    for await (const e of archive().listEntities<Record<string, unknown>>()) {
      records.push(String(e.FirstName));
    }
    expect(records.sort()).toEqual(['Jo', 'Jose']);
    expect((await getArchivedEmployee(archive(), 'Sales', '000223')).value.firstName).toBe('Jose');
  });

  it('a request for an employee deleted meanwhile is superseded: nothing archived', async () => {
    await fx.directory.employees.create('Sales', JO);
    const message = await acceptArchive('000223');
    await fx.directory.employees.delete('Sales', '000223');
    expect((await deliver(message)).outcome).toBe('superseded');
    await expect(getArchivedEmployee(archive(), 'Sales', '000223')).rejects.toThrow(/archive/);
  });

  it('a v1 message archives a legacy employee, under its plain archive key', async () => {
    await fx.directory.employees.create('Sales', JO);
    await makeLegacy('000223');
    const message = await acceptArchive('000223');
    expect(message).toMatchObject({ incarnation: LEGACY_INCARNATION });
    const v1 = { v: 1, department: 'Sales', employeeId: '000223' };
    expect((await deliver(v1)).outcome).toBe('archived');
    expect(
      (await archive().getEntity('Sales', archiveRowKey('empid_000223', 'legacy'))).FirstName,
    ).toBe('Jo');
    expect((await deliver(v1)).outcome).toBe('alreadyArchived');
  });

  it('a v1 message never archives an employee created with an incarnation', async () => {
    await fx.directory.employees.create('Sales', JO);
    const v1 = { v: 1, department: 'Sales', employeeId: '000223' };
    expect((await deliver(v1)).outcome).toBe('superseded');
    expect((await fx.directory.employees.get('Sales', '000223')).value.firstName).toBe('Jo');
  });

  it('a delete and re-create between the archive copy and its delete (412) stops the sequence', async () => {
    await fx.directory.employees.create('Sales', JO);
    const message = await acceptArchive('000223');
    const { incarnation } = parseArchiveRequest(message) as { incarnation: string };
    const result = await archiveEmployee(deps(), 'Sales', '000223', {
      incarnation,
      afterStep: async (step) => {
        if (step !== 'archived') return;
        await fx.directory.employees.delete('Sales', '000223');
        await fx.directory.employees.create('Sales', JOSE);
      },
    });
    // Formerly "changed meanwhile: archive again" took the new employee too.
    expect(result.outcome).toBe('superseded');
    expect((await fx.directory.employees.get('Sales', '000223')).value.firstName).toBe('Jose');
    // Jo was deleted by someone else after the copy: the copy is not archived.
    await expect(getArchivedEmployee(archive(), 'Sales', '000223')).rejects.toMatchObject({
      code: 'ArchivedEmployeeNotFound',
    });
    // The message is delivered again (at least once). It names Jo's incarnation, not whichever
    // the sequence would read first: Jose is left alone again, by the message's incarnation alone.
    expect(await deliver(message)).toEqual({ outcome: 'superseded', incarnation });
    expect((await fx.directory.employees.get('Sales', '000223')).value.firstName).toBe('Jose');
    await expect(getArchivedEmployee(archive(), 'Sales', '000223')).rejects.toMatchObject({
      code: 'ArchivedEmployeeNotFound',
    });
  });

  it('PATCH keeps the incarnation; import sets one per employee', async () => {
    await fx.directory.employees.create('Sales', JO);
    const before = await storedIncarnation('000223');
    expect(before).toMatch(/^[0-9a-f]{32}$/);
    await fx.directory.employees.patch('Sales', '000223', { firstName: 'Joanna', lastName: 'Ng' });
    expect(await storedIncarnation('000223')).toBe(before);

    await fx.directory.employees.import('Sales', [
      { employeeId: '000301', firstName: 'A', lastName: 'B', email: 'a@contoso.com' },
      { employeeId: '000302', firstName: 'C', lastName: 'D', email: 'c@contoso.com' },
    ]);
    const imported = [await storedIncarnation('000301'), await storedIncarnation('000302')];
    for (const incarnation of imported) expect(incarnation).toMatch(/^[0-9a-f]{32}$/);
    expect(imported[0]).not.toBe(imported[1]);
    // The API's employee JSON does not show it.
    expect(Object.keys((await fx.directory.employees.get('Sales', '000301')).value)).not.toContain(
      'incarnation',
    );
  });
});

describe('orchestration activities run again', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld();
    await world.directory.departments.put('Sales', {});
    await world.directory.departments.put('Marketing', {});
    await world.directory.employees.create('Sales', JO);
  });
  afterEach(() => world.cleanup());

  const incarnationIn = async (department: string): Promise<unknown> =>
    (await world.employees.getEntity(department, 'empid_000223')).Incarnation;

  it('a re-run move copy or removal leaves an employee created again in the source alone', async () => {
    const { services, directory } = world;
    const move: MoveInput = {
      department: 'Sales',
      employeeId: '000223',
      toDepartment: 'Marketing',
      moveId: 'instance-1',
    };
    const plan = (await validateMoveActivity(services, move)) as MovePlan & { state: 'ready' };
    const moving: MoveInput = { ...move, incarnation: plan.incarnation };
    const copy = (await copyToTargetActivity(services, moving)) as CopyResult;
    const removal = { ...moving, copied: copy };
    expect(await removeFromSourceActivity(services, removal)).toEqual({ removed: true });
    // The target copy is the same incarnation.
    expect(await incarnationIn('Marketing')).toBe(plan.incarnation);

    await directory.employees.create('Sales', JOSE);
    const recreated = await world.snapshot();
    // The runtime runs the activities again (their results were lost).
    expect(await copyToTargetActivity(services, moving)).toMatchObject({ copied: false });
    expect(await removeFromSourceActivity(services, removal)).toEqual({ removed: false });
    expect(await world.snapshot()).toEqual(recreated);
    expect((await directory.employees.get('Marketing', '000223')).value.firstName).toBe('Jo');
    expect((await directory.employees.get('Sales', '000223')).value.firstName).toBe('Jose');
  });

  it('a re-run department-archive chunk leaves an employee created again alone', async () => {
    const { services, directory } = world;
    const input = {
      department: 'Sales',
      employeeIds: ['000223'],
      incarnations: [String(await incarnationIn('Sales'))],
    };
    expect(await archiveEmployeeChunkActivity(services, input)).toEqual({
      archived: 1,
      notFound: 0,
    });
    await directory.employees.create('Sales', JOSE);
    const recreated = await world.snapshot();
    // Superseded: counted with those not found, nothing touched.
    expect(await archiveEmployeeChunkActivity(services, input)).toEqual({
      archived: 0,
      notFound: 1,
    });
    expect(await world.snapshot()).toEqual(recreated);
    expect((await getArchivedEmployee(world.archive, 'Sales', '000223')).value.firstName).toBe(
      'Jo',
    );
  });
});
