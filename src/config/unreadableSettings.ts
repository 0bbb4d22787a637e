/**
 * How src/config/index.ts reads the configuration without throwing: a setting that cannot be read
 * becomes an {@link UnreadableSetting} while the configuration is built, then a property that
 * throws {@link SettingUnavailableError} (503) when code reads it — so only the feature that
 * needs it is off. Pure: the environment is src/config/index.ts's business.
 */
import { settingUnavailable } from './settingErrors';
import type { ConfigError } from './readSetting';

/** Reads one value; how a {@link ConfigError} is handled is the caller's choice. */
export type Field = <T>(read: () => T) => T;

/** A value that could not be read, waiting to become a throwing property. */
export class UnreadableSetting {
  constructor(readonly error: ConfigError) {}
}

/** A field's value for use in another field; rethrows the first field's error. */
export function valueOf<T>(value: T): T {
  if (value instanceof UnreadableSetting) throw value.error;
  return value;
}

/** Turns every unreadable value into a property that throws when read (nested objects too). */
export function armUnreadable(target: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(target)) {
    if (value instanceof UnreadableSetting) {
      const { error } = value;
      Object.defineProperty(target, key, {
        enumerable: true,
        get: () => {
          throw settingUnavailable(error);
        },
      });
    } else if (value !== null && typeof value === 'object') {
      armUnreadable(value as Record<string, unknown>);
      Object.freeze(value);
    }
  }
  Object.freeze(target);
}
