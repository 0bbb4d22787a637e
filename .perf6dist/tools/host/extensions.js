"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.defaultExtensions = void 0;
/**
 * Extensions the local host loads by default (`npm start`, the e2e helper). A durable runtime
 * registers itself here; see {@link HostExtension} in host.ts for what an extension provides.
 */
const hostExtension_1 = require("../durable/hostExtension");
exports.defaultExtensions = [hostExtension_1.durableHostExtension];
//# sourceMappingURL=extensions.js.map