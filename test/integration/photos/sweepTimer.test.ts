/**
 * The `sweepUnadoptedPhotos` timer adapter, invoked as the host invokes it: it sweeps the
 * configured `photos` container through the process-wide photo dependencies and logs one line.
 * (What the sweep deletes is proved by sweepUnadopted.test.ts; here a fresh upload, within the
 * grace period, is listed and kept.)
 */
import { InvocationContext, type Timer } from '@azure/functions';
import type * as PhotoFunctions from '../../../functions/photos';
import { resetConfig } from '../../../src/config';
import { photoBlobName } from '../../../src/storage/keys/blobs/photoBlobs';
import { pngImage } from '../../support/images';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

const clients = testClients();
const container = uniqueName('photos');
const employeesTable = uniqueTableName('EmpTm');
const archiveTable = uniqueTableName('ArcTm');
let functions: typeof PhotoFunctions;

beforeAll(async () => {
  // functions/photos reads the configuration when it registers its timer, so set it first.
  process.env.PHOTOS_CONTAINER = container;
  process.env.EMPLOYEES_TABLE = employeesTable;
  process.env.ARCHIVE_TABLE = archiveTable;
  resetConfig();
  functions = await import('../../../functions/photos');
});

afterAll(async () => {
  await Promise.allSettled([
    clients.container(container).deleteIfExists(),
    clients.table(employeesTable).deleteTable(),
    clients.table(archiveTable).deleteTable(),
  ]);
});

it('sweeps the configured container and logs one line with what it deleted', async () => {
  const photos = clients.container(container);
  await photos.createIfNotExists();
  const fresh = photoBlobName('Sales', '000009', 'fresh');
  await photos.getBlockBlobClient(fresh).uploadData(pngImage());

  const lines: string[] = [];
  const context = new InvocationContext({
    logHandler: (_level, ...args) => lines.push(args.join(' ')),
  });
  await functions.runUnadoptedPhotoSweep({ isPastDue: false } as Timer, context);
  expect(lines).toEqual([
    'sweepUnadoptedPhotos: deleted 0 unadopted photo version(s); listed 1 blob(s), ' +
      'swept 0 employee(s), 0 not photo versions, 0 failed.',
  ]);
  const names: string[] = [];
  for await (const blob of photos.listBlobsFlat()) names.push(blob.name);
  expect(names).toEqual([fresh]);
});
