/**
 * Blob names: the log pipeline's (hour blobs, tag ledgers, staging) and the photos'. One module
 * per family; nothing imports this entry.
 */
export {};
