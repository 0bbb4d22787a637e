/**
 * `%SETTING%` binding expressions: the Functions host replaces them with app settings in
 * trigger options such as `queueName`, `schedule` and `connection` before anything runs.
 */

/** A binding expression names a setting that has no value. */
export class BindingExpressionError extends Error {
  constructor(readonly setting: string) {
    super(`'%${setting}%' does not resolve to a value.`);
    this.name = 'BindingExpressionError';
  }
}

/**
 * Replaces every `%NAME%` in `text` with `settings[NAME]`.
 *
 * @throws {BindingExpressionError} for a setting that is unset or empty.
 */
export function resolveBindingExpressions(
  text: string,
  settings: Record<string, string | undefined>,
): string {
  return text.replace(/%([^%\s]+)%/g, (_, name: string) => {
    const value = settings[name];
    if (value === undefined || value === '') throw new BindingExpressionError(name);
    return value;
  });
}
