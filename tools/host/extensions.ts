/**
 * Extensions the local host loads by default (`npm start`, the e2e helper). A durable runtime
 * registers itself here; see {@link HostExtension} in extension.ts for what an extension provides.
 */
import { durableHostExtension } from '../durable/hostExtension';
import type { HostExtension } from './extension';

/** The extensions the local host loads by default (durable functions). */
export const defaultExtensions: HostExtension[] = [durableHostExtension];
