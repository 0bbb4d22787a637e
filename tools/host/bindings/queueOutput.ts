/**
 * `output.storageQueue(...)`: the messages a function returns or sets are enqueued after it
 * succeeds, encoded per host.json `messageEncoding`; the queue is created if missing.
 */
import type { QueueClient } from '@azure/storage-queue';
import { resolveBindingExpressions } from '../config/bindingExpressions';
import type { MessageEncoding } from '../config/hostJson';
import type { HostFunction, NamedBinding } from '../functions';
import { stringOption } from '../functions';
import { encodeMessageText, outputMessages } from '../queue/queueMessage';
import type { ConnectionResolver } from '../storage';
import { resolveQueueName } from '../queue/queueName';
import type { OutputBindingHandler } from './bindings';

/** The handler of a queue output binding: sends what the function returned to its queue. */
export function createQueueOutputHandler(
  env: Record<string, string | undefined>,
  connections: ConnectionResolver,
  encoding: MessageEncoding,
): OutputBindingHandler {
  const created = new Set<string>();
  const resolve = (fn: HostFunction, output: NamedBinding): { queue: QueueClient; key: string } => {
    let queueName: string;
    try {
      queueName = resolveQueueName(stringOption(output.binding, 'queueName'), env);
    } catch (error) {
      throw new Error(
        `Function '${fn.name}', output '${output.name}': ${(error as Error).message}`,
        { cause: error },
      );
    }
    const connection = resolveBindingExpressions(
      stringOption(output.binding, 'connection') ?? '',
      env,
    );
    return {
      queue: connections.clients(connection).queue(queueName),
      key: `${connection}|${queueName}`,
    };
  };
  return {
    type: 'queue',
    prepare(fn, output) {
      resolve(fn, output);
    },
    async deliver(fn, output, value) {
      const { queue, key } = resolve(fn, output);
      if (!created.has(key)) {
        await queue.createIfNotExists();
        created.add(key);
      }
      for (const message of outputMessages(value)) {
        await queue.sendMessage(encodeMessageText(message, encoding));
      }
    },
  };
}
