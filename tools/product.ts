/**
 * The one door from tools/ into the product (src/, functions/): what a tool takes from the app is
 * listed here, each name with its reason. The stand-ins (tools/host, tools/durable,
 * tools/easyauth) take nothing here for what they imitate, or they would share the bugs they are
 * there to catch. Lint (eslint.config.mjs) refuses src/ and functions/ in any other file of tools/.
 */

/** The launcher (host/launch.ts) clears exactly the variables by which the app detects Azure. */
export { AZURE_PLATFORM_MARKERS } from '../src/config';
/** replayPoison.ts, an operator CLI of the app, reads the app's own settings. */
export { loadConfig } from '../src/config';
/** replayPoison.ts reaches the app's storage with the app's own clients and retry budget. */
export { createStorageClients } from '../src/storage/clients';
/** replayPoison.ts runs the routine the admin route runs (src/operations/poisonQueues.ts). */
export { replayPoisonMessages } from '../src/operations/poisonQueues';
/** replayPoison.ts names the poison queue it empties as the app names it. */
export { poisonQueueName } from '../src/storage/keys/queues';
