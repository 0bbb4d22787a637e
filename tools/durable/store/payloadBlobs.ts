/**
 * Texts too large for a table row (an activity result, an orchestration's input or output, an
 * episode's events) go to a blob, and the row names the blob in `<name>_Blob` — as
 * DurableTask.AzureStorage moves payloads over 45 KB to its `-largemessages` container, so a
 * large payload works here as it does in Azure instead of failing the write.
 */
import { randomBytes } from 'node:crypto';
import type { ContainerClient } from '@azure/storage-blob';
import { MAX_PROPERTIES_PER_ENTITY, splitText, textProperties } from './largeText';
import { instanceProperties, toInstance, type InstanceRecord } from './records';
import { isNotFound } from './storageWire';

/** The blob container of one task hub's large texts. */
export class PayloadBlobs {
  constructor(readonly container: ContainerClient) {}

  async ensureCreated(): Promise<void> {
    await this.container.createIfNotExists();
  }

  /**
   * Stores `text` under a fresh name below `prefix` (fresh: a losing writer never overwrites the
   * blob a committed row names). @returns the blob's name.
   */
  async put(prefix: string, text: string): Promise<string> {
    const name = `${blobPrefix(prefix)}/${randomBytes(8).toString('hex')}`;
    const body = Buffer.from(text, 'utf8');
    await this.container.getBlockBlobClient(name).uploadData(body, {
      blobHTTPHeaders: { blobContentType: 'application/json; charset=utf-8' },
    });
    return name;
  }

  /** The text of a blob. @throws storage errors (a missing blob included). */
  async get(name: string): Promise<string> {
    const buffer = await this.container.getBlockBlobClient(name).downloadToBuffer();
    return buffer.toString('utf8');
  }

  /** Deletes every blob below `prefix` (an instance's, when it is purged). */
  async deleteUnder(prefix: string): Promise<void> {
    const names: string[] = [];
    for await (const blob of this.container.listBlobsFlat({ prefix: `${blobPrefix(prefix)}/` })) {
      names.push(blob.name);
    }
    await Promise.all(
      names.map(async (name) => {
        try {
          await this.container.deleteBlob(name);
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }),
    );
  }
}

/** Instance ids may hold any character but `/`, `\`, `#`, `?`: encoded, they are safe names. */
function blobPrefix(prefix: string): string {
  return prefix
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

/** True when `text` fits in the properties one row may spend on it. */
export function fitsInRow(text: string | undefined): boolean {
  return text === undefined || splitText(text).length <= MAX_PROPERTIES_PER_ENTITY;
}

/**
 * The row properties of `text`: in the row when it fits, else in a blob below `prefix`; either
 * way `<name>_Blob` is written, so a smaller value replaces a larger one cleanly on a merge.
 */
export async function storedText(
  blobs: PayloadBlobs,
  name: string,
  text: string | undefined,
  prefix: string,
): Promise<Record<string, string | number>> {
  if (fitsInRow(text)) return { ...textProperties(name, text), [`${name}_Blob`]: '' };
  return { [`${name}_Parts`]: 0, [`${name}_Blob`]: await blobs.put(prefix, text!) };
}

/** The blob a row names for `name`, if any. */
export function blobNameOf(entity: Record<string, unknown>, name: string): string | undefined {
  const value = entity[`${name}_Blob`];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const LARGE_INSTANCE_FIELDS: ReadonlyArray<['input' | 'output' | 'customStatus', string]> = [
  ['input', 'Input'],
  ['output', 'Output'],
  ['customStatus', 'CustomStatus'],
];

/** The `Instances` row properties of `record`, its large texts in blobs below the instance. */
export async function instanceEntityProperties(
  blobs: PayloadBlobs,
  instanceId: string,
  record: Partial<Omit<InstanceRecord, 'instanceId'>>,
): Promise<Record<string, unknown>> {
  const inRow: Partial<Omit<InstanceRecord, 'instanceId'>> = { ...record };
  const extra: Record<string, unknown> = {};
  for (const [field, property] of LARGE_INSTANCE_FIELDS) {
    if (!(field in record)) continue;
    const stored = await storedText(blobs, property, record[field], `${instanceId}/instance`);
    if (blobNameOf(stored, property)) inRow[field] = undefined;
    extra[`${property}_Blob`] = stored[`${property}_Blob`];
  }
  return { ...instanceProperties(inRow), ...extra };
}

/** An `Instances` row as a record, its large texts read back from their blobs. */
export async function readInstanceEntity(
  blobs: PayloadBlobs,
  entity: Record<string, unknown>,
): Promise<InstanceRecord> {
  const record = toInstance(entity);
  for (const [field, property] of LARGE_INSTANCE_FIELDS) {
    const blob = blobNameOf(entity, property);
    if (blob) record[field] = await blobs.get(blob);
  }
  return record;
}

/** Reads a row's text kept in a blob into the row itself, as if the row held it. */
export async function inlineBlobText(
  blobs: PayloadBlobs,
  entity: Record<string, unknown>,
  name: string,
): Promise<void> {
  const blob = blobNameOf(entity, name);
  if (!blob) return;
  entity[name] = await blobs.get(blob);
  entity[`${name}_Parts`] = 1;
}
