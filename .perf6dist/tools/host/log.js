"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseLogLevel = parseLogLevel;
exports.createLogger = createLogger;
exports.describeError = describeError;
const RANK = {
    trace: 0,
    debug: 1,
    information: 2,
    warning: 3,
    error: 4,
    critical: 5,
    none: 6,
};
/** Accepts the level names of Azure's logging configuration and a few common aliases. */
function parseLogLevel(value, fallback = 'information') {
    if (value === undefined || value.trim() === '')
        return fallback;
    const normalized = value.trim().toLowerCase();
    const aliases = {
        info: 'information',
        warn: 'warning',
        fatal: 'critical',
        off: 'none',
    };
    const level = (aliases[normalized] ?? normalized);
    if (!(level in RANK)) {
        throw new Error(`HOST_LOG_LEVEL must be one of ${Object.keys(RANK).join(', ')}; got "${value}".`);
    }
    return level;
}
/** A logger writing to the console (or to the given sinks). */
function createLogger(options) {
    const stdout = options.stdout ?? ((line) => process.stdout.write(`${line}\n`));
    const stderr = options.stderr ?? ((line) => process.stderr.write(`${line}\n`));
    const now = options.now ?? (() => new Date());
    const threshold = RANK[options.level];
    const enabled = (level) => level !== 'none' && RANK[level] >= threshold;
    const log = (level, source, message) => {
        if (!enabled(level))
            return;
        const line = `[${now().toISOString()}] [${source}] ${message}`;
        if (RANK[level] >= RANK.warning)
            stderr(line);
        else
            stdout(line);
    };
    return {
        level: options.level,
        enabled,
        log,
        info: (message) => log('information', 'host', message),
        warn: (message) => log('warning', 'host', message),
        error: (message) => log('error', 'host', message),
        debug: (message) => log('debug', 'host', message),
    };
}
/** `error.stack` or the message of anything thrown. */
function describeError(error) {
    if (error instanceof Error)
        return error.stack ?? `${error.name}: ${error.message}`;
    return String(error);
}
//# sourceMappingURL=log.js.map