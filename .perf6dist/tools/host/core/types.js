"use strict";
/**
 * The slice of the `@azure/functions-core` contract that `@azure/functions` (and
 * `durable-functions` through it) uses. In Azure the Node.js worker supplies this module; the
 * local host supplies it instead (see `coreModule.ts`). Field names and shapes follow the
 * worker's published types, which mirror the host's gRPC messages.
 */
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=types.js.map