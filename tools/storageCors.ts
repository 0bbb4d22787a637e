/**
 * CORS on the emulator's blob and table services, so the web console (console/, served at
 * /api/console/) can read storage directly with the SAS URLs the API hands out, as it does in
 * Azure where infra/app/storage.bicep sets the same rule. Azurite keeps service properties like
 * Azure does: without a rule a browser's preflight is refused.
 */
import { BlobServiceClient } from '@azure/storage-blob';
import { TableServiceClient } from '@azure/data-tables';

/** The rule of infra/app/storage.bicep (`corsRule`), for the given origins. */
export function consoleCorsRule(origins: readonly string[]): {
  allowedOrigins: string;
  allowedMethods: string;
  allowedHeaders: string;
  exposedHeaders: string;
  maxAgeInSeconds: number;
} {
  return {
    allowedOrigins: origins.join(','),
    allowedMethods: 'GET,PUT,OPTIONS,HEAD',
    allowedHeaders: 'x-ms-*,content-type,accept,dataserviceversion,maxdataserviceversion',
    exposedHeaders: 'x-ms-*,etag,content-length,content-type',
    maxAgeInSeconds: 3600,
  };
}

/** The origins a local host on `port` is reached at. */
export function localOrigins(port: number): string[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

/**
 * Sets the console's CORS rule on the blob and table services of a storage connection (the other
 * service properties are kept).
 */
export async function allowConsoleOrigins(
  connectionString: string,
  origins: readonly string[],
): Promise<void> {
  const rule = consoleCorsRule(origins);
  const blob = BlobServiceClient.fromConnectionString(connectionString);
  const table = TableServiceClient.fromConnectionString(connectionString, {
    allowInsecureConnection: true,
  });
  const blobProperties = await blob.getProperties();
  await blob.setProperties({ ...blobProperties, cors: [rule] });
  const tableProperties = await table.getProperties();
  await table.setProperties({ ...tableProperties, cors: [rule] });
}
