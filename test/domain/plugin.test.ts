import { ensurePluginRead, groupsOf, pluginDecider, PluginEvent, PluginFields } from '../../domain/plugin';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(pluginDecider);
const ORG = 'org-1';
const AT = '2026-01-01T00:00:00.000Z';
const acting = (pluginsAccessLevel = 9, organizationId = ORG) => ({ organizationId, group: 'pipeline_destinations' as const, pluginsAccessLevel });

const fields: PluginFields = {
  pluginType: 'custom',
  name: 'Hook',
  description: '',
  url: null,
  icon: null,
  configSchema: {},
  tag: 'v1',
  isGlobal: false,
  capabilities: { methods: ['onEvent'] },
  metrics: {},
  publicJobs: {},
};
const installed: PluginEvent = { type: 'PluginInstalled', data: { id: 7, organizationId: ORG, name: 'Hook', plugin: fields, at: AT } };
const globalInstalled: PluginEvent = { type: 'PluginInstalled', data: { ...installed.data, plugin: { ...fields, isGlobal: true } } as any };
const about = { organizationId: ORG, name: 'Hook', at: AT };

describe('plugin decider', () => {
  it('installs with the group default capabilities', () =>
    spec
      .given([])
      .when({ type: 'InstallPlugin', data: { ...acting(), id: 7, plugin: { pluginType: 'custom', name: 'Hook', tag: 'v1' } }, metadata: meta() })
      .then([installed]));

  it('enforces the plugins access levels: read 3, write 6, global 9', () => {
    const install = (level: number, isGlobal = false) =>
      spec.given([]).when({ type: 'InstallPlugin', data: { ...acting(level), id: 7, plugin: { isGlobal } }, metadata: meta() });
    expect(() => ensurePluginRead(2)).toThrow("Your organization's plugin access level is insufficient.");
    expect(() => ensurePluginRead(3)).not.toThrow();
    install(5).thenThrows({ kind: 'permission', detail: "Your organization's plugin access level is insufficient." });
    install(6, true).thenThrows({ kind: 'permission', detail: "This organization can't manage global plugins!" });
    spec.given([]).when({ type: 'InstallPlugin', data: { ...acting(6), id: 7, plugin: {} }, metadata: meta() }).then([
      { type: 'PluginInstalled', data: { id: 7, organizationId: ORG, name: '', plugin: expect.objectContaining({ pluginType: 'source', isGlobal: false }), at: AT } } as any,
    ]);
    spec.given([installed]).when({ type: 'UpdatePlugin', data: { ...acting(6), changes: { isGlobal: true } }, metadata: meta() }).thenThrows({ detail: "This organization can't manage global plugins!" });
    spec.given([installed]).when({ type: 'UninstallPlugin', data: acting(3), metadata: meta() }).thenThrows({ kind: 'permission' });
  });

  it('keeps other organizations\' plugins out of reach', () => {
    spec.given([installed]).when({ type: 'UpdatePlugin', data: { ...acting(9, 'org-2'), changes: { name: 'x' } }, metadata: meta() }).thenThrows({ kind: 'not_found' });
    spec
      .given([globalInstalled])
      .when({ type: 'UpdatePlugin', data: { ...acting(9, 'org-2'), changes: { name: 'x' } }, metadata: meta() })
      .thenThrows({ kind: 'permission', detail: 'This plugin installation is managed by another organization' });
    spec.given([globalInstalled]).when({ type: 'UpgradePlugin', data: acting(9, 'org-2'), metadata: meta() }).thenThrows({ kind: 'not_found' });
    spec
      .given([globalInstalled])
      .when({ type: 'UninstallPlugin', data: acting(), metadata: meta() })
      .thenThrows({ kind: 'validation', detail: 'This plugin is marked as global! Make it local before uninstallation' });
  });

  it('stores source files, update checks and upgrades as events', () => {
    spec
      .given([installed])
      .when({ type: 'UpdatePluginSource', data: { ...acting(), files: { 'index.ts': 'x', 'gone.ts': null } }, metadata: meta() })
      .then([{ type: 'PluginSourceUpdated', data: { ...about, files: { 'index.ts': 'x' } } }]);
    spec.given([installed]).when({ type: 'CheckPluginForUpdates', data: acting(), metadata: meta() }).then([{ type: 'PluginUpdateChecked', data: { ...about, tag: 'v1', latestTag: 'v1' } }]);
    spec.given([installed]).when({ type: 'UpgradePlugin', data: acting(), metadata: meta() }).then([{ type: 'PluginUpgraded', data: { ...about, fromTag: 'v1', toTag: 'v1', redownloaded: true } }]);
    const local: PluginEvent = { type: 'PluginInstalled', data: { ...installed.data, plugin: { ...fields, pluginType: 'local' } } as any };
    spec.given([local]).when({ type: 'UpgradePlugin', data: acting(), metadata: meta() }).then([{ type: 'PluginUpgraded', data: { ...about, fromTag: 'v1', toTag: 'v1', redownloaded: false } }]);
  });

  it('places plugins in groups by capabilities', () => {
    expect(groupsOf({ methods: ['processEvent'] })).toEqual(['pipeline_transformations']);
    expect(groupsOf({ methods: ['composeWebhook'] })).toEqual(['pipeline_destinations']);
    expect(groupsOf({})).toEqual(['pipeline_frontend_apps']);
    expect(groupsOf({ scheduled_tasks: ['runEveryMinute'] })).toEqual(['pipeline_import_apps']);
    expect(groupsOf({ methods: ['setupPlugin'] })).toEqual(['pipeline_import_apps']);
    expect(groupsOf({ scheduled_tasks: [] })).toEqual([]);
    expect(groupsOf({ methods: ['processEvent', 'onEvent'] })).toEqual(['pipeline_destinations', 'pipeline_transformations']);
  });
});
