import { DomainError, invalid, notFound } from '../errors';
import type { PluginCommand, PluginInput } from './commands';
import type { PluginEvent, PluginFields } from './events';
import {
  checkCapabilitiesFit,
  checkPluginType,
  ensureGlobalManagement,
  ensureManagedHere,
  ensureOwnForActions,
  ensurePluginWrite,
  GROUP_DEFAULT_CAPABILITIES,
  groupsOf,
  PluginType,
} from './rules';
import type { InstalledPlugin, PluginState } from './state';

/** Where each kind of plugin comes from, so a url that contradicts the type is refused. */
const URL_PREFIXES: Partial<Record<PluginType, RegExp>> = {
  local: /^file:/,
  inline: /^inline:/,
  custom: /^https?:\/\//,
  repository: /^https?:\/\//,
};

function checkUrl(type: PluginType, url: string | null) {
  const prefix = URL_PREFIXES[type];
  if (url !== null && prefix && !prefix.test(url)) throw invalid(`The url of a ${type} plugin must match ${prefix.source}.`, 'url');
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function decide(command: PluginCommand, state: PluginState): PluginEvent[] {
  const at = command.metadata.now;
  const { organizationId, group, pluginsAccessLevel } = command.data;
  ensurePluginWrite(pluginsAccessLevel);

  if (command.type === 'InstallPlugin') {
    if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This plugin already exists.');
    const input = command.data.plugin;
    const pluginType = checkPluginType(input.pluginType ?? 'source');
    if (input.isGlobal) ensureGlobalManagement(pluginsAccessLevel);
    const capabilities = input.capabilities ?? GROUP_DEFAULT_CAPABILITIES[group];
    checkCapabilitiesFit(capabilities, group);
    const url = input.url ?? null;
    checkUrl(pluginType, url);
    const plugin: PluginFields = {
      pluginType,
      name: input.name ?? '',
      description: input.description ?? '',
      url,
      icon: input.icon ?? null,
      configSchema: input.configSchema ?? {},
      tag: input.tag ?? null,
      isGlobal: input.isGlobal ?? false,
      capabilities,
      metrics: input.metrics ?? {},
      publicJobs: input.publicJobs ?? {},
    };
    return [{ type: 'PluginInstalled', data: { id: command.data.id, organizationId, name: plugin.name, plugin, at } }];
  }

  // Through a group's URL, a plugin of another group (or of nobody's) does not exist.
  if (state.status !== 'installed' || !groupsOf(state.capabilities).includes(group)) throw notFound();
  const about = { organizationId: state.organizationId, name: state.name, at };

  switch (command.type) {
    case 'UpdatePlugin': {
      ensureManagedHere(state, organizationId);
      const changes = changesOf(state, command.data.changes);
      if (changes.isGlobal !== undefined) ensureGlobalManagement(pluginsAccessLevel);
      if (changes.capabilities) checkCapabilitiesFit(changes.capabilities, group);
      if (!Object.keys(changes).length) return [];
      return [{ type: 'PluginUpdated', data: { ...about, name: changes.name ?? state.name, changes } }];
    }
    case 'UninstallPlugin':
      ensureManagedHere(state, organizationId);
      if (state.isGlobal) throw invalid('This plugin is marked as global! Make it local before uninstallation', null);
      return [{ type: 'PluginUninstalled', data: about }];
    case 'UpdatePluginSource': {
      ensureOwnForActions(state, organizationId);
      const files = command.data.files;
      if (Object.keys(files).some((name) => name.trim() === '')) throw invalid('A file name may not be blank.', null);
      const effective = Object.fromEntries(Object.entries(files).filter(([name, text]) => (text === null ? name in state.sourceFiles : state.sourceFiles[name] !== text)));
      return Object.keys(effective).length ? [{ type: 'PluginSourceUpdated', data: { ...about, files: effective } }] : [];
    }
    case 'CheckPluginForUpdates':
      ensureOwnForActions(state, organizationId);
      // Chronicle keeps no plugin archives and fetches none, so the newest tag it can know is the installed one.
      return [{ type: 'PluginUpdateChecked', data: { ...about, tag: state.tag, latestTag: state.tag } }];
    case 'UpgradePlugin': {
      ensureOwnForActions(state, organizationId);
      const redownloaded = state.pluginType !== 'source' && state.pluginType !== 'local';
      const toTag = redownloaded ? (state.latestTag ?? state.tag) : state.tag;
      return [{ type: 'PluginUpgraded', data: { ...about, fromTag: state.tag, toTag, redownloaded } }];
    }
  }
}

/** The fields of a PATCH that differ from what is stored, plugin_type checked. */
function changesOf(state: InstalledPlugin, input: PluginInput): Partial<PluginFields> {
  const changes: Partial<PluginFields> = {};
  const { pluginType, url: _ignoredUrl, ...rest } = input;
  if (pluginType !== undefined) {
    const type = checkPluginType(pluginType);
    if (type !== state.pluginType) {
      checkUrl(type, state.url);
      changes.pluginType = type;
    }
  }
  for (const [field, value] of Object.entries(rest) as [keyof PluginFields, unknown][]) {
    if (value !== undefined && !same(value, state[field])) (changes as Record<string, unknown>)[field] = value;
  }
  return changes;
}
