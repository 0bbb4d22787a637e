/**
 * The org-wide last-name index behind one interface (`lastNameStore.ts`): the blob store (option
 * 1, `lastNameBlobStore.ts`), the entity store (option 3, `lastNameEntityStore.ts`), the store
 * `LASTNAME_INDEX_MODE` picks (`storeForMode.ts`), the blob member-list scan (`memberListScan.ts`).
 *
 * Description only: other folders import src/indexing's entry, its files import these files.
 */
export {};
