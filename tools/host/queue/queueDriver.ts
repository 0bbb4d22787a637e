/**
 * The storage queue trigger (`app.storageQueue`): one listener per function, on the queue its
 * binding names (`%SETTING%` resolved, lower-cased), through the connection its binding names.
 */
import { randomUUID } from 'node:crypto';
import type { QueueOptions } from '../config/hostJson';
import { resolveBindingExpressions } from '../config/bindingExpressions';
import type { TriggerDriver } from '../drivers';
import { stringOption, type HostFunction } from '../functions';
import type { Logger } from '../log';
import type { FunctionRunner } from '../runner';
import { DEFAULT_CONNECTION, type ConnectionResolver } from '../storage';
import { QueueListener } from './queueListener';
import { queueTriggerMetadata } from './queueMessage';
import { poisonQueueFor, resolveQueueName } from './queueName';

/** How the queue driver reaches storage and invokes functions. */
export interface QueueDriverOptions {
  env: Record<string, string | undefined>;
  options: QueueOptions;
  connections: ConnectionResolver;
  runner: FunctionRunner;
  logger: Logger;
}

/** The driver of queue-triggered functions: one listener per function. */
export function createQueueDriver(config: QueueDriverOptions): TriggerDriver {
  const listeners = new Map<string, QueueListener>();
  const queueNames = new Map<string, string>();

  return {
    triggerTypes: ['queuetrigger'],

    add(fn) {
      const binding = fn.trigger.binding;
      let queueName: string;
      try {
        queueName = resolveQueueName(stringOption(binding, 'queueName'), config.env);
      } catch (error) {
        throw new Error(`Function '${fn.name}': ${(error as Error).message}`, { cause: error });
      }
      const connectionName =
        resolveBindingExpressions(stringOption(binding, 'connection') ?? '', config.env) ||
        DEFAULT_CONNECTION;
      const clients = config.connections.clients(connectionName);
      queueNames.set(fn.name, queueName);
      listeners.set(
        fn.name,
        new QueueListener({
          fn,
          queue: clients.queue(queueName),
          poisonQueue: clients.queue(poisonQueueFor(queueName)),
          options: config.options,
          runner: config.runner,
          logger: config.logger,
        }),
      );
    },

    describe(fn) {
      return `queueTrigger on '${queueNames.get(fn.name)}'`;
    },

    async start() {
      for (const listener of listeners.values()) listener.start();
    },

    async stop(graceMs) {
      await Promise.all([...listeners.values()].map((listener) => listener.stop(graceMs)));
    },

    // The admin endpoint calls the function directly with the input as the message text, as
    // the Functions host does: no queue round trip, no retries, no poison queue.
    async runOnce(fn: HostFunction, input: string) {
      const now = new Date();
      await config.runner.run(fn, {
        data: { string: input },
        metadata: queueTriggerMetadata(
          {
            messageId: randomUUID(),
            popReceipt: '',
            messageText: input,
            dequeueCount: 1,
            insertedOn: now,
            expiresOn: now,
            nextVisibleOn: now,
          },
          input,
          fn.name,
          now,
        ),
        reason: 'This function was programmatically called via the host APIs.',
      });
    },
  };
}
