/**
 * Stored formats (pure): levels and their mask (`levels.ts`), the line format (`lineFormat.ts`),
 * block ids and their summary (`blockId.ts`), blob metadata (`metadata.ts`), the block one flush
 * appends (`hourBlock.ts`).
 *
 * Description only: other folders import src/logs's entry, its files import these files.
 */
export {};
