/**
 * The front's decision for one request, once its body has arrived whole (a table insert or batch
 * names its partition only there): its units, and whether the targets admit it.
 */
import type { StorageService } from '../faultProxy/faultPlan';
import { requestUnits, type RequestUnits } from './requestUnits';
import type { TargetsLimiter, Throttle } from './targetsLimiter';

/** What the front does with a request: forward its body, or answer the throttle. */
export interface Admission {
  body: Buffer;
  units: RequestUnits;
  throttle?: Throttle;
}

/** Azure's messages for ServerBusy: the account's own, and a partition's (or queue's, blob's). */
export const THROTTLE_MESSAGES = {
  account: 'Operations per second is over the account limit.',
  other: 'The server is busy.',
} as const;

/** Asks the targets about a request whose body has arrived whole. */
export async function admitRequest(
  targets: TargetsLimiter,
  service: StorageService,
  request: { method: string; url: string; body: Buffer },
): Promise<Admission> {
  const { method, url, body } = request;
  const text = service === 'table' && method === 'POST' ? body.toString('utf8') : undefined;
  const units = requestUnits(service, method, url, text);
  const throttle = await targets.admit(units);
  return { body, units, ...(throttle ? { throttle } : {}) };
}
