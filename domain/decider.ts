/**
 * The shape every aggregate follows (Emmett's decider): pure functions, no I/O, no clock.
 * Time and the acting user arrive in the command's metadata, so `decide` is repeatable in tests.
 */
export type Message<Type extends string = string, Data = unknown> = {
  type: Type;
  data: Data;
  metadata?: Record<string, unknown>;
};

export type CommandMetadata = {
  /** ISO timestamp of the request; deciders never read the clock themselves. */
  now: string;
  /** Integer id of the acting user, when there is one. */
  userId?: number;
};

export type Command<Type extends string = string, Data = unknown> = {
  type: Type;
  data: Data;
  metadata: CommandMetadata;
};

export type Decider<State, Cmd extends Command, Event extends Message> = {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Cmd, state: State): Event[];
};
