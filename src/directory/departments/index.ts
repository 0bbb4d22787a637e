/**
 * Department operations: put, get, the cached list and its listing copy (the `.departments`
 * partition) with the count the index drain refreshes, the manager, departments found from the
 * data. The workers that keep the listing (the index drain's count, the audit, department pages)
 * import this surface; the directory's entry (../index.ts) exposes the listing to the API. Files
 * of the directory import the files here, never this entry.
 */
export { departmentsHoldingRows } from './departmentDiscovery';
export { listingNeedsUpdate, syncDepartmentListing } from './departmentListing';
export { listDepartments } from './departmentList';
export {
  refreshListingCount,
  type CountRefresh,
  type ListingCountOptions,
  type ListingEtags,
} from './listingCount';
export { TtlCache } from './ttlCache';
