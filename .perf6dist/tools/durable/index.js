"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_TUNING = exports.createDurableRuntime = void 0;
/** The local Durable Functions runtime (see docs/durable.md). */
var runtime_1 = require("./runtime");
Object.defineProperty(exports, "createDurableRuntime", { enumerable: true, get: function () { return runtime_1.createDurableRuntime; } });
Object.defineProperty(exports, "DEFAULT_TUNING", { enumerable: true, get: function () { return runtime_1.DEFAULT_TUNING; } });
//# sourceMappingURL=index.js.map