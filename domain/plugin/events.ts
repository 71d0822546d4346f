import type { Message } from '../decider';
import type { Capabilities, PluginType } from './rules';

export type PluginFields = {
  pluginType: PluginType;
  name: string;
  description: string;
  url: string | null;
  icon: string | null;
  configSchema: Record<string, unknown> | unknown[];
  tag: string | null;
  isGlobal: boolean;
  capabilities: Capabilities;
  metrics: Record<string, unknown>;
  publicJobs: Record<string, unknown>;
};

/** Every plugin event names the owning organization and the plugin's name then, so its activity reads alone. */
type About = { organizationId: string; name: string; at: string };

export type PluginInstalled = Message<'PluginInstalled', About & { id: number; plugin: PluginFields }>;
export type PluginUpdated = Message<'PluginUpdated', About & { changes: Partial<PluginFields> }>;
export type PluginUninstalled = Message<'PluginUninstalled', About>;
/** Files written (text) or deleted (null), as update_source received them. */
export type PluginSourceUpdated = Message<'PluginSourceUpdated', About & { files: Record<string, string | null> }>;
export type PluginUpdateChecked = Message<'PluginUpdateChecked', About & { tag: string | null; latestTag: string | null }>;
/** `redownloaded` is false for source and local plugins, whose code lives here rather than behind a url. */
export type PluginUpgraded = Message<'PluginUpgraded', About & { fromTag: string | null; toTag: string | null; redownloaded: boolean }>;

export type PluginEvent = PluginInstalled | PluginUpdated | PluginUninstalled | PluginSourceUpdated | PluginUpdateChecked | PluginUpgraded;
