"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TRIGGER_OWNED_OUTPUTS = void 0;
exports.bindingType = bindingType;
/** Binding types the trigger drivers handle themselves. */
exports.TRIGGER_OWNED_OUTPUTS = new Set(['http']);
function bindingType(binding) {
    return String(binding.binding.type ?? '').toLowerCase();
}
//# sourceMappingURL=bindings.js.map