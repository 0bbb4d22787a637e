/**
 * A delete racing a PATCH of the same employee, made deterministic: the delete has read the
 * employee and planned its transaction, the transaction is held just before it reaches storage,
 * the PATCH commits, then the delete goes on. A delete with `If-Match` must then fail (its ETag no
 * longer matches) and the edit must survive; a delete without `If-Match` deletes the new version.
 */
import { PreconditionFailedError } from '../../../src/errors';
import { deletesEntity, holdFirstBatch } from '../../support/batchGate';
import { createDirectoryFixture, employeeBody, type DirectoryFixture } from './fixture';

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
