/**
 * The photo feature over its own tables and container, with the Sales department (and, unless
 * asked otherwise, employee 000001 in it): what each photo test starts from.
 */
import { createDirectory } from '../../../src/directory/directory';
import { accountKeySigner } from '../../../src/storage/blobSas';
import type { TableClient } from '@azure/data-tables';
import type { PhotoDependencies } from '../../../src/photos/photos';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

const clients = testClients();

/** The photo feature over the SDK's own clients (one account: nothing routes; tests hook them). */
export type SdkPhotoDependencies = PhotoDependencies & {
  employees: TableClient;
  archive: TableClient;
};

/** Builds the photo feature's dependencies over fresh names prefixed `prefix`. */
export async function photoFixture(
  prefix: string,
  options: { employee?: boolean; readSasSeconds?: number } = {},
): Promise<SdkPhotoDependencies> {
  const employees = clients.table(uniqueTableName(`Emp${prefix}`));
  const directory = createDirectory({ employees });
  const deps: SdkPhotoDependencies = {
    employees,
    archive: clients.table(uniqueTableName(`Arc${prefix}`)),
    photos: clients.container(uniqueName('photos')),
    directory: directory.employees,
    signer: accountKeySigner(clients.sharedKey!),
    allowHttp: true,
    ...(options.readSasSeconds === undefined ? {} : { readSasSeconds: options.readSasSeconds }),
  };
  await directory.departments.put('Sales', {});
  if (options.employee !== false) {
    await directory.employees.create('Sales', {
      employeeId: '000001',
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.example',
    });
  }
  return deps;
}

/** Deletes what {@link photoFixture} created (best effort: a test may have dropped some). */
export async function removePhotoFixture(deps: PhotoDependencies): Promise<void> {
  await Promise.allSettled([deps.employees.deleteTable(), deps.photos.deleteIfExists()]);
}

/** The names of the blobs in the photos container, in listing order. */
export async function photoBlobNames(deps: PhotoDependencies): Promise<string[]> {
  const names: string[] = [];
  for await (const blob of deps.photos.listBlobsFlat()) names.push(blob.name);
  return names;
}
