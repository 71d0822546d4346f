/**
 * Turns version `from` of an event type's data into version `from + 1`. Pure, like the deciders: events written by
 * older releases are read in today's shape, never rewritten in the log.
 */
export type Upcaster = { type: string; from: number; up: (data: any, metadata: Record<string, any>) => any };
