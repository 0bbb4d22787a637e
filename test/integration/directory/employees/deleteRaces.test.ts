/**
 * A delete racing a PATCH of the same employee, made deterministic: the delete has read the
 * employee and planned its transaction, the transaction is held just before it reaches storage,
 * the PATCH commits, then the delete goes on. A delete with `If-Match` must then fail (its ETag no
 * longer matches) and the edit must survive; a delete without `If-Match` deletes the new version.
 * Index entities are deleted under their ETag the same way.
 */
import { PreconditionFailedError } from '../../../../src/domainErrors';
import { lastNameRowKey } from '../../../../src/storage/keys/tables/employees';
import { deletesEntity, holdFirstBatch } from '../../../support/batchGate';
import {
  compareIndexes,
  createDirectoryFixture,
  employeeBody,
  type DirectoryFixture,
} from '../fixture';

let fx: DirectoryFixture;
beforeEach(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Ops', {});
  await fx.directory.employees.create('Ops', employeeBody(1, { firstName: 'Jo' }));
});
afterEach(() => fx.cleanup());

it('DELETE with If-Match loses to a PATCH that lands between its read and its transaction', async () => {
  const { etag } = await fx.directory.employees.get('Ops', '000001');
  const gate = holdFirstBatch(fx.table, deletesEntity('Ops', 'empid_000001'));

  const deleting = fx.directory.employees.delete('Ops', '000001', { ifMatch: etag });
  await gate.reached;
  const patched = await fx.another().employees.patch('Ops', '000001', { firstName: 'Joanna' });
  gate.release();

  await expect(deleting).rejects.toBeInstanceOf(PreconditionFailedError);
  const stored = await fx.directory.employees.get('Ops', '000001');
  expect(stored.value.firstName).toBe('Joanna');
  expect(stored.etag).toBe(patched.etag);
  expect((await fx.directory.departments.get('Ops')).value.employeeCount).toBe(1);
  expect(
    (await fx.directory.employees.getByEmail('Ops', 'user000001@contoso.com')).value,
  ).toMatchObject({
    firstName: 'Joanna',
  });
});

it('DELETE without If-Match deletes the version the PATCH wrote (last writer wins)', async () => {
  const gate = holdFirstBatch(fx.table, deletesEntity('Ops', 'empid_000001'));

  const deleting = fx.directory.employees.delete('Ops', '000001');
  await gate.reached;
  await fx.another().employees.patch('Ops', '000001', { firstName: 'Joanna' });
  gate.release();

  expect((await deleting).deleted).toBe(true);
  await expect(fx.directory.employees.get('Ops', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect((await fx.directory.departments.get('Ops')).value.employeeCount).toBe(0);
});

it('a rename that empties a last-name index entity keeps an id added to it meanwhile', async () => {
  // 000001 is the only Last1; renaming it deletes that index entity. A create of another Last1
  // commits between the rename's read and its transaction: the delete's ETag no longer matches,
  // the rename retries on the new index entity and removes only its own id.
  const gate = holdFirstBatch(fx.table, deletesEntity('Ops', lastNameRowKey('Last1')));
  const renaming = fx.directory.employees.patch('Ops', '000001', { lastName: 'Other' });
  await gate.reached;
  await fx.another().employees.create('Ops', employeeBody(8));
  gate.release();
  await renaming;

  const last1 = await fx.directory.employees.findByLastName('Ops', 'Last1');
  expect(last1.items.map((e) => e.employeeId)).toEqual(['000008']);
  const other = await fx.directory.employees.findByLastName('Ops', 'Other');
  expect(other.items.map((e) => e.employeeId)).toEqual(['000001']);
  const { stored, expected } = await compareIndexes(fx.table, 'Ops');
  expect(stored).toEqual(expected);
});
