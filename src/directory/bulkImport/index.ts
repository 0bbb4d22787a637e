/**
 * Importing up to 1,000 employees into one department: rows screened (importRows.ts), the index
 * entities' versions known or read (indexVersions.ts), cut into entity group transactions and
 * chains of them (importPlan.ts), each chunk planned (chunkTransaction.ts) and written as one
 * transaction (importChunk.ts), up to 4 chains at once (importEmployees.ts). The directory's entry
 * (../index.ts) exposes it; files of the directory import the files here.
 */
export type { ImportResult } from './importEmployees';
