import type { Decider } from '../decider';
import type { PluginCommand } from './commands';
import { decide } from './decide';
import type { PluginEvent } from './events';
import { evolve, initialState, PluginState } from './state';

export const pluginDecider: Decider<PluginState, PluginCommand, PluginEvent> = { decide, evolve, initialState };
export const pluginStream = (id: number) => `plugin-${id}`;
export type { PluginCommand, PluginInput } from './commands';
export type { PluginEvent, PluginFields } from './events';
export type { PluginState };
export { applySourceFiles } from './state';
export * from './rules';
