import type { Doc } from '../../src/readstore/port';
import { pluginsProjection } from '../../projections/plugins';
import { applyEvent, documentKey, ProjectedEvent } from '../../projections/projection';

const about = (at: string) => ({ organizationId: 'org', name: 'Hook', at });
const events: Array<Pick<ProjectedEvent, 'type' | 'data'>> = [
  {
    type: 'PluginInstalled',
    data: {
      id: 3,
      ...about('2026-01-01T00:00:00.000Z'),
      plugin: { pluginType: 'custom', name: 'Hook', description: '', url: null, icon: null, configSchema: {}, tag: 'v1', isGlobal: false, capabilities: { methods: ['onEvent'] }, metrics: {}, publicJobs: {} },
    },
  },
  { type: 'PluginUpdated', data: { ...about('2026-01-01T00:00:01.000Z'), changes: { capabilities: { methods: ['onEvent', 'processEvent'] }, isGlobal: true } } },
  { type: 'PluginSourceUpdated', data: { ...about('2026-01-01T00:00:02.000Z'), files: { 'index.ts': 'a', 'b.ts': 'b' } } },
  { type: 'PluginSourceUpdated', data: { ...about('2026-01-01T00:00:03.000Z'), files: { 'b.ts': null } } },
  { type: 'PluginUpdateChecked', data: { ...about('2026-01-01T00:00:04.000Z'), tag: 'v1', latestTag: 'v2' } },
  { type: 'PluginUpgraded', data: { ...about('2026-01-01T00:00:05.000Z'), fromTag: 'v1', toTag: 'v2', redownloaded: true } },
];

const projected = (e: Pick<ProjectedEvent, 'type' | 'data'>, i: number): ProjectedEvent => ({
  ...e,
  metadata: { userId: 1 },
  streamId: 'plugin-3',
  revision: BigInt(i),
  position: BigInt(50 + i),
});

describe('plugins projection', () => {
  it('applies every event once, whatever the number of deliveries, with one activity entry per event', () => {
    const docs = new Map<string, Doc | null>();
    events.forEach((e, i) => applyEvent(pluginsProjection, projected(e, i), docs));
    const snapshot = new Map(docs);
    events.forEach((e, i) => expect(applyEvent(pluginsProjection, projected(e, i), docs)).toEqual([]));
    expect(docs).toEqual(snapshot);
    const plugin = docs.get(documentKey({ collection: 'plugins', id: 3 }));
    expect(plugin).toMatchObject({
      id: 3,
      plugin_type: 'custom',
      is_global: true,
      tag: 'v2',
      latest_tag: 'v2',
      source_files: { 'index.ts': 'a' },
      groups: { pipeline_destinations: true, pipeline_transformations: true, pipeline_frontend_apps: false, pipeline_import_apps: false },
      updated_at: '2026-01-01T00:00:05.000Z',
    });
    const activity = [...docs.entries()].filter(([k]) => k.startsWith('plugin_activity')).map(([, d]) => d!.activity);
    expect(activity).toEqual(['installed', 'updated', 'source_updated', 'source_updated', 'checked_for_updates', 'upgraded']);
  });

  it('removes an uninstalled plugin but keeps its activity', () => {
    const docs = new Map<string, Doc | null>();
    const all = [...events, { type: 'PluginUninstalled', data: about('2026-01-01T00:00:06.000Z') }];
    all.forEach((e, i) => applyEvent(pluginsProjection, projected(e, i), docs));
    all.forEach((e, i) => applyEvent(pluginsProjection, projected(e, i), docs));
    expect(docs.get(documentKey({ collection: 'plugins', id: 3 }))).toBeNull();
    expect(docs.get(documentKey({ collection: 'plugin_activity', id: '3:6' }))).toMatchObject({ activity: 'uninstalled', plugin_name: 'Hook', user_id: 1 });
  });
});
