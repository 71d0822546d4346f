import 'reflect-metadata';
import { container as root, DependencyContainer } from 'tsyringe';
import { allProjections } from '../projections';
import { CommandHandler } from './commands/command-handler';
import type { Config } from './config';
import { EmbeddedEventStore } from './eventstore/embedded';
import { EventStoreDbEventStore } from './eventstore/eventstoredb';
import type { EventStore } from './eventstore/port';
import { KeyThrottle } from './http/throttle';
import { Logger } from './logger';
import { ProjectionRunner } from './projections/runner';
import { ProjectionWorker } from './projections/worker';
import { EmbeddedReadStore } from './readstore/embedded';
import { MongoReadStore } from './readstore/mongodb';
import type { ReadStore } from './readstore/port';

export const TOKENS = {
  Config: Symbol('Config'),
  Logger: Symbol('Logger'),
  EventStore: Symbol('EventStore'),
  ReadStore: Symbol('ReadStore'),
  Projections: Symbol('Projections'),
  Commands: Symbol('Commands'),
  Throttle: Symbol('Throttle'),
} as const;

/** What request handlers and background workers use; resolved from the container once per app. */
export type Services = {
  config: Config;
  logger: Logger;
  eventStore: EventStore;
  readStore: ReadStore;
  projections: ProjectionRunner;
  commands: CommandHandler;
  throttle: KeyThrottle;
};

/** The adapter behind each port follows the configuration: a URL selects the production engine. */
export function createStores(config: Config): { eventStore: EventStore; readStore: ReadStore } {
  return {
    eventStore: config.EVENTSTORE_URL ? new EventStoreDbEventStore(config.EVENTSTORE_URL) : new EmbeddedEventStore(config.DATA_DIR),
    readStore: config.MONGODB_URL ? new MongoReadStore(config.MONGODB_URL) : new EmbeddedReadStore(config.DATA_DIR),
  };
}

export function createContainer(config: Config, logger = new Logger(config.LOG_LEVEL)): DependencyContainer {
  const c = root.createChildContainer();
  c.register(TOKENS.Config, { useValue: config });
  c.register(TOKENS.Logger, { useValue: logger });
  const { eventStore, readStore } = createStores(config);
  c.register(TOKENS.EventStore, { useValue: eventStore });
  c.register(TOKENS.ReadStore, { useValue: readStore });
  const projections = new ProjectionRunner(eventStore, readStore, allProjections, logger, (async) => new ProjectionWorker(config, async, eventStore, logger));
  c.register(TOKENS.Projections, { useValue: projections });
  c.register(TOKENS.Commands, { useValue: new CommandHandler(eventStore, projections) });
  c.register(TOKENS.Throttle, { useValue: new KeyThrottle(config.API_RATE_LIMIT_PER_MINUTE) });
  return c;
}

export function servicesOf(c: DependencyContainer): Services {
  return {
    config: c.resolve(TOKENS.Config),
    logger: c.resolve(TOKENS.Logger),
    eventStore: c.resolve(TOKENS.EventStore),
    readStore: c.resolve(TOKENS.ReadStore),
    projections: c.resolve(TOKENS.Projections),
    commands: c.resolve(TOKENS.Commands),
    throttle: c.resolve(TOKENS.Throttle),
  };
}
