/**
 * Importing up to 1,000 employees into one department: rows screened (importRows.ts), cut into
 * entity group transactions (importPlan.ts), written chunk by chunk (importEmployees.ts). The
 * directory's entry (../index.ts) exposes it; files of the directory import the files here.
 */
export type { ImportResult } from './importEmployees';
