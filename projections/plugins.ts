import type { Doc } from '../src/readstore/port';
import { applySourceFiles, groupsOf, PLUGIN_GROUPS } from '../domain/plugin';
import type { Capabilities } from '../domain/plugin';
import type { Projection, ProjectedEvent } from './projection';

const FIELD_NAMES: Record<string, string> = {
  pluginType: 'plugin_type',
  name: 'name',
  description: 'description',
  url: 'url',
  icon: 'icon',
  configSchema: 'config_schema',
  tag: 'tag',
  isGlobal: 'is_global',
  capabilities: 'capabilities',
  metrics: 'metrics',
  publicJobs: 'public_jobs',
};

const snake = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [FIELD_NAMES[k] ?? k, v]));

/** One flag per group, so a group's list is one indexed filter ("groups.pipeline_destinations": true). */
const groupFlags = (capabilities: Capabilities) => {
  const member = groupsOf(capabilities);
  return Object.fromEntries(PLUGIN_GROUPS.map((g) => [g, member.includes(g)]));
};

const ACTIVITY: Record<string, string> = {
  PluginInstalled: 'installed',
  PluginUpdated: 'updated',
  PluginUninstalled: 'uninstalled',
  PluginSourceUpdated: 'source_updated',
  PluginUpdateChecked: 'checked_for_updates',
  PluginUpgraded: 'upgraded',
};

function activityDetail(event: ProjectedEvent): Record<string, unknown> {
  const d = event.data;
  switch (event.type) {
    case 'PluginInstalled':
      return { plugin_type: d.plugin.pluginType, tag: d.plugin.tag };
    case 'PluginUpdated':
      return { changes: snake(d.changes) };
    case 'PluginSourceUpdated':
      return { files: Object.fromEntries(Object.entries(d.files).map(([name, text]) => [name, text === null ? 'deleted' : 'written'])) };
    case 'PluginUpdateChecked':
      return { tag: d.tag, latest_tag: d.latestTag };
    case 'PluginUpgraded':
      return { from_tag: d.fromTag, to_tag: d.toTag, redownloaded: d.redownloaded };
    default:
      return {};
  }
}

const pluginIdOf = (event: ProjectedEvent) => Number(event.streamId.slice('plugin-'.length));

function evolvePlugin(doc: Doc | null, event: ProjectedEvent): Doc | null {
  const d = event.data;
  if (event.type === 'PluginInstalled') {
    return {
      _id: d.id,
      id: d.id,
      ...snake(d.plugin),
      latest_tag: null,
      organization_id: d.organizationId,
      groups: groupFlags(d.plugin.capabilities),
      source_files: {},
      latest_tag_checked_at: null,
      created_at: d.at,
      updated_at: d.at,
    };
  }
  if (!doc) return doc;
  switch (event.type) {
    case 'PluginUpdated': {
      const next: Doc = { ...doc, ...snake(d.changes), updated_at: d.at };
      return { ...next, groups: groupFlags(next.capabilities) };
    }
    case 'PluginUninstalled':
      return null;
    case 'PluginSourceUpdated':
      return { ...doc, source_files: applySourceFiles(doc.source_files, d.files), updated_at: d.at };
    case 'PluginUpdateChecked':
      return { ...doc, latest_tag: d.latestTag, latest_tag_checked_at: d.at, updated_at: d.at };
    case 'PluginUpgraded':
      return { ...doc, tag: d.toTag, updated_at: d.at };
    default:
      return doc;
  }
}

/**
 * The plugin registry behind the four pipeline groups, and the activity log of every plugin (kept after an
 * uninstall: that is when it is most wanted).
 */
export const pluginsProjection: Projection = {
  name: 'plugins',
  version: 1,
  categories: ['plugin'],
  collections: { plugins: [['organization_id'], ['is_global']], plugin_activity: [['organization_id', 'created_at']] },
  lag: 'awaited',
  keys: (event) =>
    ACTIVITY[event.type]
      ? [
          { collection: 'plugins', id: pluginIdOf(event) },
          { collection: 'plugin_activity', id: `${pluginIdOf(event)}:${event.revision}` },
        ]
      : [],
  evolve(doc, event, key) {
    if (key.collection === 'plugins') return evolvePlugin(doc, event);
    return {
      _id: key.id,
      id: key.id,
      organization_id: event.data.organizationId,
      plugin_id: pluginIdOf(event),
      plugin_name: event.data.name,
      activity: ACTIVITY[event.type],
      detail: activityDetail(event),
      user_id: event.metadata.userId ?? null,
      created_at: event.data.at,
    };
  },
};
