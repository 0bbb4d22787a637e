/**
 * Azure's queue naming rule, checked at startup so a bad `queueName` fails early and clearly.
 * Like the Functions host, the name is lower-cased first.
 */
import { resolveBindingExpressions } from '../config/bindingExpressions';

/** The queue where the host moves a message that failed every delivery: `<queue>-poison`. */
export function poisonQueueFor(queueName: string): string {
  return `${queueName}-poison`;
}

/** Why a queue name is invalid, or undefined when it is valid. */
export function queueNameProblem(name: string): string | undefined {
  if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(name)) {
    return `"${name}" is not a valid queue name (3-63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit).`;
  }
  return undefined;
}

/**
 * Resolves `%SETTING%` expressions in a binding's queue name, lower-cases and validates it.
 *
 * @throws {Error} for an unresolved setting or an invalid name.
 */
export function resolveQueueName(
  raw: string | undefined,
  env: Record<string, string | undefined>,
): string {
  const name = resolveBindingExpressions(raw ?? '', env).toLowerCase();
  const problem = queueNameProblem(name);
  if (problem) throw new Error(problem);
  return name;
}
