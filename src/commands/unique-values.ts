import { createHash } from 'node:crypto';
import { uniqueValueDecider } from '../../domain/unique-value';
import type { CommandMetadata } from '../../domain/decider';
import type { Services } from '../container';
import { loadStream } from './command-handler';

/** A claim whose holder never came into being is given up after this long (a create that crashed half-way). */
const UNFINISHED_CLAIM_MS = 60_000;

const valueStream = (kind: string, value: string) => `unique_value-${kind}.${createHash('sha256').update(value).digest('hex').slice(0, 40)}`;

export type UniqueKind = {
  kind: string;
  /** The holder's own stream: its last event says whether it was deleted. */
  holderStream: (holder: string) => string;
  deletedEvent: string;
  takenDetail: string;
  attr: string;
};

/**
 * Claims `value` for `holder`, or throws the kind's 400 `unique` error when another live holder has it. A holder
 * counts as gone once its stream ends in its deletion event, or when it never got a stream within a minute of
 * its claim. Claiming again for the same holder is a no-op.
 */
export async function claimUniqueValue(services: Services, metadata: CommandMetadata, spec: UniqueKind, value: string, holder: string) {
  const stream = valueStream(spec.kind, value);
  const { state } = await services.commands.load(uniqueValueDecider, stream);
  let goneHolder: string | null = null;
  if (state.holder && state.holder !== holder) {
    const events = await loadStream(services.eventStore, spec.holderStream(state.holder));
    const gone =
      events.length === 0
        ? Date.parse(metadata.now) - Date.parse(state.claimedAt ?? metadata.now) > UNFINISHED_CLAIM_MS
        : events[events.length - 1].type === spec.deletedEvent;
    if (gone) goneHolder = state.holder;
  }
  await services.commands.handle(uniqueValueDecider, stream, {
    type: 'ClaimValue',
    data: { holder, goneHolder, takenDetail: spec.takenDetail, attr: spec.attr },
    metadata,
  });
}

export async function releaseUniqueValue(services: Services, metadata: CommandMetadata, spec: UniqueKind, value: string, holder: string) {
  await services.commands.handle(uniqueValueDecider, valueStream(spec.kind, value), { type: 'ReleaseValue', data: { holder }, metadata });
}
