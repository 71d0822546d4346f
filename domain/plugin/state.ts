import type { PluginEvent, PluginFields } from './events';

export type InstalledPlugin = PluginFields & {
  status: 'installed';
  id: number;
  organizationId: string;
  latestTag: string | null;
  sourceFiles: Record<string, string>;
};

export type PluginState = { status: 'none' } | InstalledPlugin | { status: 'uninstalled' };

export const initialState = (): PluginState => ({ status: 'none' });

export function evolve(state: PluginState, event: PluginEvent): PluginState {
  if (event.type === 'PluginInstalled') {
    return { status: 'installed', id: event.data.id, organizationId: event.data.organizationId, latestTag: null, sourceFiles: {}, ...event.data.plugin };
  }
  if (state.status !== 'installed') return state;
  switch (event.type) {
    case 'PluginUpdated':
      return { ...state, ...event.data.changes };
    case 'PluginUninstalled':
      return { status: 'uninstalled' };
    case 'PluginSourceUpdated':
      return { ...state, sourceFiles: applySourceFiles(state.sourceFiles, event.data.files) };
    case 'PluginUpdateChecked':
      return { ...state, latestTag: event.data.latestTag };
    case 'PluginUpgraded':
      return { ...state, tag: event.data.toTag };
  }
}

/** null deletes a file, text writes it: how update_source changes the file map. */
export function applySourceFiles(current: Record<string, string>, files: Record<string, string | null>): Record<string, string> {
  const next = { ...current };
  for (const [name, text] of Object.entries(files)) {
    if (text === null) delete next[name];
    else next[name] = text;
  }
  return next;
}
