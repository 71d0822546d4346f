import type { Command } from '../decider';
import type { PluginFields } from './events';
import type { PluginGroup } from './rules';

/** Who acts, through which group, with the organization's plugins_access_level (looked up by the router). */
type Acting = { organizationId: string; group: PluginGroup; pluginsAccessLevel: number };

/** Body fields as received (plugin_type unchecked yet); absent ones take their defaults. */
export type PluginInput = Partial<Omit<PluginFields, 'pluginType'>> & { pluginType?: string };

export type InstallPlugin = Command<'InstallPlugin', Acting & { id: number; plugin: PluginInput }>;
export type UpdatePlugin = Command<'UpdatePlugin', Acting & { changes: PluginInput }>;
export type UninstallPlugin = Command<'UninstallPlugin', Acting>;
export type UpdatePluginSource = Command<'UpdatePluginSource', Acting & { files: Record<string, string | null> }>;
export type CheckPluginForUpdates = Command<'CheckPluginForUpdates', Acting>;
export type UpgradePlugin = Command<'UpgradePlugin', Acting>;

export type PluginCommand = InstallPlugin | UpdatePlugin | UninstallPlugin | UpdatePluginSource | CheckPluginForUpdates | UpgradePlugin;
