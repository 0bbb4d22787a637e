"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.KeyedMutex = void 0;
/**
 * Serialises work per key inside this process: two wake-ups of one orchestration never run their
 * episodes at the same time here (across processes, the episode commit's insert decides).
 */
class KeyedMutex {
    #tails = new Map();
    #waiting = new Map();
    /** How many calls for `key` are waiting for the one that runs now. */
    waiting(key) {
        return this.#waiting.get(key) ?? 0;
    }
    /** Runs `work` after all earlier work for `key` has finished. */
    async run(key, work) {
        const previous = this.#tails.get(key);
        if (previous)
            this.#waiting.set(key, this.waiting(key) + 1);
        let release;
        const done = new Promise((resolve) => {
            release = resolve;
        });
        const tail = (previous ?? Promise.resolve()).then(() => done);
        this.#tails.set(key, tail);
        if (previous) {
            await previous;
            const left = this.waiting(key) - 1;
            if (left > 0)
                this.#waiting.set(key, left);
            else
                this.#waiting.delete(key);
        }
        try {
            return await work();
        }
        finally {
            release();
            if (this.#tails.get(key) === tail)
                this.#tails.delete(key);
        }
    }
}
exports.KeyedMutex = KeyedMutex;
//# sourceMappingURL=keyedMutex.js.map