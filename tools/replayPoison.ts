/**
 * `node dist/tools/replayPoison.js <queue> [--max N] [--dry-run]`: moves messages from
 * `<queue>-poison` back to `<queue>` once the cause of their failures is fixed.
 *
 * The routine is src/operations/poisonQueues.ts (the admin route
 * `POST /api/operations/poison/{queue}/replay` runs the same): each message is first sent to
 * `<queue>` and only then deleted from the poison queue, so a crash between the two leaves a
 * duplicate, never a loss, and the workers are idempotent. `--dry-run` only peeks (at most 32
 * messages, the service's peek limit) and changes nothing. Storage: the `AzureWebJobsStorage`
 * connection (environment).
 */
import { parseArgs } from 'node:util';
import { createStorageClients, loadConfig, poisonQueueName, replayPoisonMessages } from './product';

/** Parsed command line. */
export interface ReplayCommand {
  queueName: string;
  max?: number;
  dryRun: boolean;
}

/**
 * Reads `<queue> [--max N] [--dry-run]`.
 *
 * @throws {Error} naming the problem (missing queue, extra arguments, bad --max).
 */
export function parseReplayArgs(args: readonly string[]): ReplayCommand {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { max: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) {
    throw new Error('Usage: replayPoison <queue> [--max N] [--dry-run]');
  }
  let max: number | undefined;
  if (values.max !== undefined) {
    if (!/^\d{1,9}$/.test(values.max) || Number(values.max) < 1)
      throw new Error(`--max must be a whole number ≥ 1, got "${values.max}".`);
    max = Number(values.max);
  }
  return { queueName: positionals[0]!, max, dryRun: values['dry-run'] === true };
}

async function main(): Promise<void> {
  const command = parseReplayArgs(process.argv.slice(2));
  const config = loadConfig(process.env);
  const clients = createStorageClients(config.storage, config.retry);
  const from = poisonQueueName(command.queueName);
  const messages = await replayPoisonMessages(clients, command.queueName, {
    max: command.max,
    dryRun: command.dryRun,
    onMessage: (m) =>
      process.stdout.write(
        `${command.dryRun ? 'would move' : 'moved'} ${m.messageId} (dequeued ${m.dequeueCount}×` +
          `${m.insertedOn ? `, first queued ${m.insertedOn.toISOString()}` : ''})\n`,
      ),
  });
  process.stdout.write(
    `${command.dryRun ? 'Would move' : 'Moved'} ${messages.length} message(s) from ${from} to ${command.queueName}.\n`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `replayPoison: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
