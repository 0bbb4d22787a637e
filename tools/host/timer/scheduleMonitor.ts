/**
 * Where timer schedule statuses live: blob `timers/<hostId>/Host.Functions.<name>/status` in the
 * `azure-webjobs-hosts` container of `AzureWebJobsStorage`, as the Functions host keeps them.
 */
import type { ContainerClient } from '@azure/storage-blob';
import type { ScheduleStatus } from './scheduleStatus';

/** The container the Functions host keeps timer schedule status in. */
export const HOSTS_CONTAINER = 'azure-webjobs-hosts';

/** Reads and writes a timer's schedule status (last and next run). */
export interface ScheduleMonitor {
  read(functionName: string): Promise<ScheduleStatus | undefined>;
  write(functionName: string, status: ScheduleStatus): Promise<void>;
}

/** The blob name of a timer's status. */
export function statusBlobName(hostId: string, functionName: string): string {
  return `timers/${hostId}/Host.Functions.${functionName}/status`;
}

/** A schedule monitor over blobs, as the Functions host keeps them (`azure-webjobs-hosts`). */
export function createBlobScheduleMonitor(
  container: ContainerClient,
  hostId: string,
): ScheduleMonitor {
  let ready = false;
  return {
    async read(functionName) {
      const blob = container.getBlockBlobClient(statusBlobName(hostId, functionName));
      try {
        const body = await blob.downloadToBuffer();
        const parsed = JSON.parse(body.toString('utf8')) as Partial<ScheduleStatus>;
        if (
          typeof parsed.Last !== 'string' ||
          typeof parsed.Next !== 'string' ||
          typeof parsed.LastUpdated !== 'string'
        ) {
          return undefined;
        }
        return { Last: parsed.Last, Next: parsed.Next, LastUpdated: parsed.LastUpdated };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return undefined;
        throw error;
      }
    },
    async write(functionName, status) {
      if (!ready) {
        await container.createIfNotExists();
        ready = true;
      }
      const text = JSON.stringify(status);
      await container
        .getBlockBlobClient(statusBlobName(hostId, functionName))
        .upload(text, Buffer.byteLength(text), {
          blobHTTPHeaders: { blobContentType: 'application/json' },
        });
    },
  };
}
