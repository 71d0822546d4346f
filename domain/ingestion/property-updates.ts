/**
 * Person and group properties, kept so that the order events are applied in does not matter, only their
 * timestamps (a historical import sent after live data must not overwrite newer values):
 * - `$set` is last-writer-wins by event time: each property remembers the time of the value it holds;
 * - `$set_once` keeps the earliest value by event time;
 * - the visible value is the latest `$set` if there is one, else the earliest `$set_once` (in time order a
 *   `$set_once` after a `$set` does nothing, and a `$set` overwrites an earlier `$set_once`).
 * Both rules are commutative and associative, so merging two persons is the same fold over their states.
 */
export type Stamped = { v: unknown; t: string };
export type PropertyState = { set: Record<string, Stamped>; set_once: Record<string, Stamped> };

export const emptyPropertyState = (): PropertyState => ({ set: {}, set_once: {} });

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Ties on time go to the later-applied write for $set, and stay with the held value for $set_once. */
export function applyUpdates(state: PropertyState, set: unknown, setOnce: unknown, t: string): PropertyState | null {
  let next: PropertyState | null = null;
  const ensure = () => (next ??= { set: { ...state.set }, set_once: { ...state.set_once } });
  if (isObject(set)) {
    for (const [key, v] of Object.entries(set)) {
      const held = state.set[key];
      if (!held || t >= held.t) {
        if (held && held.t === t && JSON.stringify(held.v) === JSON.stringify(v)) continue;
        ensure().set[key] = { v, t };
      }
    }
  }
  if (isObject(setOnce)) {
    for (const [key, v] of Object.entries(setOnce)) {
      const held = state.set_once[key];
      if (!held || t < held.t) ensure().set_once[key] = { v, t };
    }
  }
  return next;
}

/** Folds several states (the distinct ids of one person) into one, by the same rules. */
export function mergeStates(states: PropertyState[]): PropertyState {
  const out = emptyPropertyState();
  for (const s of states) {
    for (const [key, p] of Object.entries(s.set)) if (!out.set[key] || p.t > out.set[key].t) out.set[key] = p;
    for (const [key, p] of Object.entries(s.set_once)) if (!out.set_once[key] || p.t < out.set_once[key].t) out.set_once[key] = p;
  }
  return out;
}

export function visibleProperties(state: PropertyState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(state.set_once)) out[key] = p.v;
  for (const [key, p] of Object.entries(state.set)) out[key] = p.v;
  return out;
}
