import { denied, invalid, notFound } from '../errors';

export const PLUGIN_TYPES = ['local', 'custom', 'repository', 'source', 'inline'] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

export const PLUGIN_GROUPS = ['pipeline_destinations', 'pipeline_frontend_apps', 'pipeline_import_apps', 'pipeline_transformations'] as const;
export type PluginGroup = (typeof PLUGIN_GROUPS)[number];

export type Capabilities = { methods?: string[]; scheduled_tasks?: string[]; [key: string]: unknown };

const DESTINATION_METHODS = ['onEvent', 'composeWebhook'];
const GROUP_DEFINING_METHODS = ['processEvent', ...DESTINATION_METHODS];

/**
 * Which groups a plugin shows up in, from what it can do (the reference filters its four endpoints the same
 * way). A plugin may be in several groups (processEvent and onEvent), or, with an empty scheduled_tasks and no
 * methods, in none.
 */
export function groupsOf(capabilities: Capabilities): PluginGroup[] {
  const methods = Array.isArray(capabilities.methods) ? capabilities.methods : undefined;
  const tasks = Array.isArray(capabilities.scheduled_tasks) ? capabilities.scheduled_tasks : undefined;
  const groups: PluginGroup[] = [];
  if (methods?.some((m) => DESTINATION_METHODS.includes(m))) groups.push('pipeline_destinations');
  if (!('methods' in capabilities) && !('scheduled_tasks' in capabilities)) groups.push('pipeline_frontend_apps');
  if ((tasks && tasks.length > 0) || (methods && !methods.some((m) => GROUP_DEFINING_METHODS.includes(m)))) groups.push('pipeline_import_apps');
  if (methods?.includes('processEvent')) groups.push('pipeline_transformations');
  return groups;
}

/** What a plugin installed through a group can do when the body names no capabilities (decisions.md). */
export const GROUP_DEFAULT_CAPABILITIES: Record<PluginGroup, Capabilities> = {
  pipeline_destinations: { methods: ['onEvent'] },
  pipeline_frontend_apps: {},
  pipeline_import_apps: { scheduled_tasks: ['runEveryHour'] },
  pipeline_transformations: { methods: ['processEvent'] },
};

export function checkCapabilitiesFit(capabilities: Capabilities, group: PluginGroup) {
  if (!groupsOf(capabilities).includes(group)) {
    throw invalid(`These capabilities do not make the plugin one of ${group}; create or change it through the group they belong to.`, 'capabilities');
  }
}

export function checkPluginType(value: string): PluginType {
  if (!(PLUGIN_TYPES as readonly string[]).includes(value)) throw invalid(`"${value}" is not a valid choice.`, 'plugin_type', 'invalid_choice');
  return value as PluginType;
}

/** The organization's plugins_access_level thresholds (the reference's CONFIG, INSTALL and ROOT levels). */
export const PluginsAccess = { config: 3, install: 6, root: 9 } as const;

const insufficient = () => denied("Your organization's plugin access level is insufficient.");

export function ensurePluginRead(pluginsAccessLevel: number) {
  if (pluginsAccessLevel < PluginsAccess.config) throw insufficient();
}

export function ensurePluginWrite(pluginsAccessLevel: number) {
  if (pluginsAccessLevel < PluginsAccess.install) throw insufficient();
}

export function ensureGlobalManagement(pluginsAccessLevel: number) {
  if (pluginsAccessLevel < PluginsAccess.root) throw denied("This organization can't manage global plugins!");
}

export type PluginOwnership = { organizationId: string; isGlobal: boolean };

/** An organization sees its own plugins and every global one; anything else does not exist for it. */
export function ensureVisible(plugin: PluginOwnership, organizationId: string) {
  if (plugin.organizationId !== organizationId && !plugin.isGlobal) throw notFound();
}

/** Editing or uninstalling: a global plugin stays under the control of the organization that installed it. */
export function ensureManagedHere(plugin: PluginOwnership, organizationId: string) {
  ensureVisible(plugin, organizationId);
  if (plugin.organizationId !== organizationId) throw denied('This plugin installation is managed by another organization');
}

/** Source, update_source, upgrade and check_for_updates only exist for the organization's own plugins. */
export function ensureOwnForActions(plugin: PluginOwnership, organizationId: string) {
  if (plugin.organizationId !== organizationId) throw notFound();
}
