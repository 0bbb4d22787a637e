import {
  departmentEntity,
  departmentListingEntity,
  departmentMerge,
  readListingVersion,
} from '../../../../src/directory/entities/departmentEntity';
import {
  listingNeedsUpdate,
  listingVersionOf,
} from '../../../../src/directory/departments/departmentListing';
import type { StoredEntity } from '../../../../src/storage/tables/entities';

const stored = (entity: Record<string, unknown>): StoredEntity =>
  ({ etag: 'e', ...entity }) as StoredEntity;

describe('department listing versions', () => {
  it('a new department is version 1; a description change carries the next version', () => {
    expect(readListingVersion(departmentEntity('Ops', 'x'))).toBe(1);
    const merge = departmentMerge('Ops', { description: { text: 'y', listingVersion: 2 } });
    expect(merge).toMatchObject({ Description: 'y', ListingVersion: 2 });
    expect(departmentMerge('Ops', { employeeCount: 3 })).not.toHaveProperty('ListingVersion');
    expect(readListingVersion({})).toBe(0);
    expect(readListingVersion({ ListingVersion: 'x' })).toBe(0);
  });

  it('the listing carries the version it copies', () => {
    const listing = departmentListingEntity({ name: 'Ops', description: 'x' }, 7);
    expect(listing).toMatchObject({ partitionKey: '.departments', Description: 'x', Version: 7 });
    expect(listingVersionOf(stored(listing))).toBe(7);
    const { Version: _v, ...legacy } = listing;
    expect(listingVersionOf(stored(legacy))).toBe(0);
  });

  it('replaces only an older copy, or the same version with other content (legacy)', () => {
    const at = (version: number, description: string): StoredEntity =>
      stored(departmentListingEntity({ name: 'Ops', description }, version));
    const summary = { name: 'Ops', description: 'new' };
    expect(listingNeedsUpdate(at(3, 'newer'), summary, 2)).toBe('newer');
    expect(listingNeedsUpdate(at(2, 'new'), summary, 2)).toBe('current');
    expect(listingNeedsUpdate(at(1, 'old'), summary, 2)).toBe('replace');
    expect(listingNeedsUpdate(at(0, 'legacy'), { ...summary }, 0)).toBe('replace');
  });
});
