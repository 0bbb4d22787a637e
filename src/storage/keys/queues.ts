/** Queue names derived from other queue names. */

/** Name of the queue the Functions host moves a message to after its last failed attempt. */
export function poisonQueueName(queueName: string): string {
  return `${queueName}-poison`;
}

/** Reverses {@link poisonQueueName}. */
export function parsePoisonQueueName(queueName: string): string | undefined {
  return queueName.endsWith('-poison') ? queueName.slice(0, -'-poison'.length) : undefined;
}
