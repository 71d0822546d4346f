import { SECRET_FIELDS } from '../../domain/batch-export/destinations';
import { batchExportsProjection } from '../../projections/batch-exports';
import { dashboardsProjection } from '../../projections/dashboards';
import { organizationInvitesProjection } from '../../projections/organization-invites';
import { membershipId, organizationMembersProjection } from '../../projections/organization-members';
import { documentKey, type Projection } from '../../projections/projection';
import { loadStream } from '../commands/command-handler';
import { organizationsProjection } from '../../projections/organizations';
import { pluginsProjection } from '../../projections/plugins';
import { verifiedDomainsProjection } from '../../projections/verified-domains';
import type { Services } from '../container';
import type { Doc } from '../readstore/port';
import type { ActivitySource, TrackedItem } from './activity';

/**
 * Every resource whose history can be replayed: how to find its stream and document from an id (the CLI), and
 * all of an organization's items of this kind (the organization-wide activity log).
 */
export type HistorySource = ActivitySource & {
  /** The name `npm run history -- <name> <id>` takes. */
  name: string;
  byId(id: string): TrackedItem | null;
  inOrganization(services: Services, organizationId: string): Promise<TrackedItem[]>;
};

const integerId = (id: string) => (/^\d+$/.test(id) ? Number(id) : null);
const uuidId = (id: string) => (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : null);
const named = (doc: Record<string, any> | null) => (doc?.name as string | undefined) ?? null;

async function ids(services: Services, collection: string, filter: Record<string, unknown>) {
  return (await services.readStore.find<Doc>(collection, filter)).map((d) => d._id);
}

/**
 * Streams of a category whose first event says they belong to the organization. Read from the log, not the read
 * models, so items deleted since (and gone from their read model) still show in the organization's history.
 */
async function streamsCreatedIn(services: Services, category: string, belongs: (data: any) => boolean | Promise<boolean>) {
  const streams: string[] = [];
  for (let after = 0n; ; ) {
    const page = await services.eventStore.readAll({ after, maxCount: 1000, filter: { categories: [category] } });
    if (page.length === 0) return streams;
    for (const event of page) if (event.revision === 0n && (await belongs(event.data))) streams.push(event.streamId);
    after = page[page.length - 1].position;
  }
}

const idOf = (stream: string) => stream.slice(stream.indexOf('-') + 1);

export const dashboardHistory: HistorySource = {
  name: 'dashboard',
  scope: 'Dashboard',
  projection: dashboardsProjection,
  // The sharing token is a secret; the revision is bookkeeping.
  hidden: ['revision', 'sharing.access_token'],
  verbs: { DashboardRestored: 'restored', DashboardSharingTokenRefreshed: 'sharing_token_refreshed' },
  nameOf: named,
  byId: (id) => {
    const n = integerId(id);
    return n === null ? null : { stream: `dashboard-${n}`, key: { collection: 'dashboards', id: n } };
  },
  async inOrganization(services, organizationId) {
    const projects = new Set(await ids(services, 'projects', { organization_id: organizationId }));
    const streams = await streamsCreatedIn(services, 'dashboard', (data) => projects.has(data.projectId));
    return streams.map((s) => dashboardHistory.byId(idOf(s))!);
  },
};

export const organizationHistory: HistorySource = {
  name: 'organization',
  scope: 'Organization',
  projection: organizationsProjection,
  hidden: ['member_count', 'teams'],
  nameOf: named,
  byId: (id) => {
    const u = uuidId(id);
    return u === null ? null : { stream: `organization-${u}`, key: { collection: 'organizations', id: u } };
  },
  async inOrganization(_services, organizationId) {
    return [organizationHistory.byId(organizationId)!];
  },
};

export const domainHistory: HistorySource = {
  name: 'domain',
  scope: 'Domain',
  projection: verifiedDomainsProjection,
  hidden: ['verification_attempts'],
  verbs: { DomainVerified: 'verified', DomainVerificationFailed: 'verification_failed' },
  nameOf: (doc) => (doc?.domain as string | undefined) ?? null,
  byId: (id) => {
    const u = uuidId(id);
    return u === null ? null : { stream: `domain-${u}`, key: { collection: 'verified_domains', id: u } };
  },
  async inOrganization(services, organizationId) {
    const streams = await streamsCreatedIn(services, 'domain', (data) => data.organizationId === organizationId);
    return streams.map((s) => domainHistory.byId(idOf(s))!);
  },
};

export const pluginHistory: HistorySource = {
  name: 'plugin',
  scope: 'Plugin',
  projection: pluginsProjection,
  hidden: ['source_files'],
  verbs: { PluginSourceUpdated: 'source_updated', PluginUpdateChecked: 'checked_for_updates', PluginUpgraded: 'upgraded' },
  nameOf: named,
  byId: (id) => {
    const n = integerId(id);
    return n === null ? null : { stream: `plugin-${n}`, key: { collection: 'plugins', id: n } };
  },
  async inOrganization(services, organizationId) {
    const streams = await streamsCreatedIn(services, 'plugin', (data) => data.organizationId === organizationId);
    return streams.map((s) => pluginHistory.byId(idOf(s))!);
  },
};

/** Documents a projection keeps from one stream (members and invites live in their organization's stream). */
async function keysInStream(services: Services, projection: Projection, stream: string, collection: string) {
  const seen = new Map<string, TrackedItem>();
  for (const event of await loadStream(services.eventStore, stream)) {
    for (const key of projection.keys(event)) if (key.collection === collection) seen.set(documentKey(key), { stream, key });
  }
  return [...seen.values()];
}

export const memberHistory: HistorySource = {
  name: 'member',
  scope: 'Member',
  projection: organizationMembersProjection,
  hidden: [],
  nameOf: (doc) => (doc ? String(doc.user_uuid) : null),
  /** `<organization id>:<user id>` */
  byId: (id) => {
    const [organizationId, userId] = id.split(':');
    const o = uuidId(organizationId ?? '');
    const u = integerId(userId ?? '');
    return o === null || u === null ? null : { stream: `organization-${o}`, key: { collection: 'organization_members', id: membershipId(o, u) } };
  },
  inOrganization: (services, organizationId) =>
    keysInStream(services, organizationMembersProjection, `organization-${organizationId}`, 'organization_members'),
};

export const inviteHistory: HistorySource = {
  name: 'invite',
  scope: 'Invite',
  projection: organizationInvitesProjection,
  hidden: [],
  nameOf: (doc) => (doc?.target_email as string | undefined) ?? null,
  /** `<organization id>:<invite id>` */
  byId: (id) => {
    const [organizationId, inviteId] = id.split(':');
    const o = uuidId(organizationId ?? '');
    const i = uuidId(inviteId ?? '');
    return o === null || i === null ? null : { stream: `organization-${o}`, key: { collection: 'organization_invites', id: i } };
  },
  inOrganization: (services, organizationId) =>
    keysInStream(services, organizationInvitesProjection, `organization-${organizationId}`, 'organization_invites'),
};

const allSecretFields = [...new Set(Object.values(SECRET_FIELDS).flat())];

export const batchExportHistory: HistorySource = {
  name: 'batch_export',
  scope: 'BatchExport',
  projection: batchExportsProjection,
  hidden: allSecretFields.map((f) => `destination.config.${f}`),
  verbs: { BatchExportPaused: 'paused', BatchExportUnpaused: 'unpaused', BatchExportBackfillRequested: 'backfill_requested' },
  nameOf: named,
  byId: (id) => {
    const u = uuidId(id);
    return u === null ? null : { stream: `batch_export-${u}`, key: { collection: 'batch_exports', id: u } };
  },
  async inOrganization(services, organizationId) {
    const streams = await streamsCreatedIn(services, 'batch_export', (data) => data.organizationId === organizationId);
    return streams.map((s) => batchExportHistory.byId(idOf(s))!);
  },
};

export const historySources: HistorySource[] = [
  organizationHistory,
  memberHistory,
  inviteHistory,
  dashboardHistory,
  domainHistory,
  batchExportHistory,
  pluginHistory,
];
