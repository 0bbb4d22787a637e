/**
 * The host's console logger: one line per entry, `[time] [source] message`, where the source is
 * `host` or the function's name. `HOST_LOG_LEVEL` (trace, debug, information, warning, error,
 * critical, none) quiets it; warnings and errors go to stderr.
 */
import type { RpcLogLevel } from './core/types';

/** The level of a log line. */
export type LogLevel = RpcLogLevel;

const RANK: Record<LogLevel, number> = {
  trace: 0,
  debug: 1,
  information: 2,
  warning: 3,
  error: 4,
  critical: 5,
  none: 6,
};

/** Accepts the level names of Azure's logging configuration and a few common aliases. */
export function parseLogLevel(
  value: string | undefined,
  fallback: LogLevel = 'information',
): LogLevel {
  if (value === undefined || value.trim() === '') return fallback;
  const normalized = value.trim().toLowerCase();
  const aliases: Record<string, LogLevel> = {
    info: 'information',
    warn: 'warning',
    fatal: 'critical',
    off: 'none',
  };
  const level = (aliases[normalized] ?? normalized) as LogLevel;
  if (!(level in RANK)) {
    throw new Error(
      `HOST_LOG_LEVEL must be one of ${Object.keys(RANK).join(', ')}; got "${value}".`,
    );
  }
  return level;
}

/** Writes the host's log lines (and the functions' ones) at or above a level. */
export interface Logger {
  readonly level: LogLevel;
  enabled(level: LogLevel): boolean;
  log(level: LogLevel, source: string, message: string): void;
  /** Host-level shortcuts. */
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

/** Where and from which level a {@link Logger} writes. */
export interface LoggerOptions {
  level: LogLevel;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
  now?: () => Date;
}

/** A logger writing to the console (or to the given sinks). */
export function createLogger(options: LoggerOptions): Logger {
  const stdout = options.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const stderr = options.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  const threshold = RANK[options.level];
  const enabled = (level: LogLevel): boolean => level !== 'none' && RANK[level] >= threshold;
  const log = (level: LogLevel, source: string, message: string): void => {
    if (!enabled(level)) return;
    const line = `[${now().toISOString()}] [${source}] ${message}`;
    if (RANK[level] >= RANK.warning) stderr(line);
    else stdout(line);
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
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
