import { Router } from 'express';
import { z } from 'zod';
import {
  ensureManagedHere,
  ensureOwnForActions,
  ensurePluginRead,
  ensurePluginWrite,
  ensureVisible,
  PLUGIN_GROUPS,
  pluginDecider,
  PluginGroup,
  PluginInput,
  pluginStream,
} from '../../domain/plugin';
import { allocateId } from '../commands/ids';
import type { Services } from '../container';
import { OrganizationDoc, UserDoc, userSummary } from '../identity/documents';
import type { Doc } from '../readstore/port';
import { organizationAccess } from './access';
import { Context, created, empty, ok, Reply, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { parseBody, parseWith } from './validation';

const jsonObject = z.record(z.string(), z.unknown());

const pluginBody = z.object({
  plugin_type: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
  description: z.string().max(10_000).optional(),
  icon: z.string().max(800).nullable().optional(),
  // An object as the interface types it, or the list of fields a plugin.json usually holds.
  config_schema: z.union([jsonObject, z.array(z.unknown())], { error: 'Expected a dictionary or a list of items.' }).optional(),
  tag: z.string().max(200).nullable().optional(),
  is_global: z.boolean().optional(),
  capabilities: z
    .looseObject({
      methods: z.array(z.string()).optional(),
      scheduled_tasks: z.array(z.string()).optional(),
      jobs: z.array(z.string()).optional(),
    })
    .optional(),
  metrics: jsonObject.optional(),
  public_jobs: jsonObject.optional(),
});

/** The reference takes `url` when a plugin is installed (where its code comes from); it is fixed afterwards. */
const installBody = pluginBody.extend({ url: z.string().max(800).optional() });

/** Update fields that arrive with update_source are not file names (decisions.md: they are ignored). */
const UPDATE_FIELDS = new Set(Object.keys(installBody.shape));
const sourceFilesBody = z.record(z.string().max(200), z.string().max(1_000_000).nullable());

function inputOf(body: z.output<typeof installBody>): PluginInput {
  const input: PluginInput = {
    pluginType: body.plugin_type,
    name: body.name,
    description: body.description,
    url: body.url,
    icon: body.icon,
    configSchema: body.config_schema,
    tag: body.tag,
    isGlobal: body.is_global,
    capabilities: body.capabilities,
    metrics: body.metrics,
    publicJobs: body.public_jobs,
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

const ownership = (doc: Doc) => ({ organizationId: doc.organization_id as string, isGlobal: doc.is_global as boolean });

export function serializePlugin(doc: Doc, organizationName: string | null) {
  return {
    id: doc.id,
    plugin_type: doc.plugin_type,
    name: doc.name,
    description: doc.description,
    url: doc.url,
    icon: doc.icon,
    config_schema: doc.config_schema,
    tag: doc.tag,
    latest_tag: doc.latest_tag,
    is_global: doc.is_global,
    organization_id: doc.organization_id,
    organization_name: organizationName,
    capabilities: doc.capabilities,
    metrics: doc.metrics,
    public_jobs: doc.public_jobs,
    // The interface types this as a string; Chronicle has no hog-function migrations to offer.
    hog_function_migration_available: 'false',
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/**
 * One plugin registry behind the four pipeline groups. A group's URLs show the plugins its capabilities place
 * in it, of the organization or global; plugins of other organizations do not exist there.
 */
export function pluginsRouter(services: Services) {
  const router = Router();
  for (const group of PLUGIN_GROUPS) groupRoutes(router, services, group);
  return router;
}

function groupRoutes(router: Router, services: Services, group: PluginGroup) {
  const base = `/api/organizations/:organization_id/${group}/`;
  const { readStore, commands } = services;

  /** Membership (403), then the organization's plugins_access_level for reading or writing (403). */
  async function access(ctx: Context, need: 'read' | 'write') {
    const { organization } = await organizationAccess(services, ctx.principal, String(ctx.req.params.organization_id));
    const level = organization.plugins_access_level;
    if (need === 'read') ensurePluginRead(level);
    else ensurePluginWrite(level);
    return { organization, level };
  }

  /** The plugin behind `:id` as this organization sees it through this group, else 404. */
  async function pluginOf(ctx: Context, organization: OrganizationDoc) {
    const raw = String(ctx.req.params.id);
    const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
    const doc = Number.isSafeInteger(id) ? await readStore.get('plugins', id) : null;
    if (!doc || !doc.groups?.[group]) throw apiErrors.notFound();
    ensureVisible(ownership(doc), organization.id);
    return doc;
  }

  async function serializeAll(docs: Doc[]) {
    const ids = [...new Set(docs.map((d) => d.organization_id as string))];
    const orgs = await readStore.getMany<OrganizationDoc>('organizations', ids);
    const names = new Map(orgs.map((o) => [o.id, o.name]));
    return docs.map((d) => serializePlugin(d, names.get(d.organization_id) ?? null));
  }

  const serializeOne = async (id: number) => (await serializeAll([(await readStore.get('plugins', id))!]))[0];

  const acting = (organization: OrganizationDoc, level: number) => ({ organizationId: organization.id, group, pluginsAccessLevel: level });

  resource(router, services, base, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx, 'read');
        const page = pageOf(ctx.req);
        const filter = { [`groups.${group}`]: true, $or: [{ organization_id: organization.id }, { is_global: true }] };
        const count = await readStore.count('plugins', filter);
        const docs = await readStore.find('plugins', filter, { sort: [['id', 1]], skip: page.offset, limit: page.limit });
        return ok(paginated(ctx.req, services.config.PUBLIC_URL, page, count, await serializeAll(docs)));
      },
    },
    post: {
      scope: 'plugin:write',
      handler: async (ctx) => {
        const { organization, level } = await access(ctx, 'write');
        const body = parseBody(ctx.req, installBody);
        const id = await allocateId(services.eventStore, 'plugin');
        const { revision } = await commands.handle(pluginDecider, pluginStream(id), {
          type: 'InstallPlugin',
          data: { ...acting(organization, level), id, plugin: inputOf(body) },
          metadata: ctx.metadata,
        });
        return created(await serializeOne(id), revision);
      },
    },
  });

  // Collection-level actions come before `:id/`, which would otherwise take their names for ids.
  const noBody = (path: string) =>
    resource(router, services, `${base}${path}/`, {
      get: {
        scope: 'plugin:read',
        handler: async (ctx) => {
          await access(ctx, 'read');
          return empty(200);
        },
      },
    });
  // The interface answers these with no body; their data, where Chronicle has any, is served beside them.
  noBody('activity');
  noBody('exports_unsubscribe_configs');
  noBody('repository');
  noBody('unused');

  resource(router, services, `${base}activity_log/`, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx, 'read');
        const page = pageOf(ctx.req);
        const filter = { organization_id: organization.id };
        const count = await readStore.count('plugin_activity', filter);
        const docs = await readStore.find('plugin_activity', filter, { sort: [['_position', -1]], skip: page.offset, limit: page.limit });
        const users = await readStore.getMany<UserDoc>('users', [...new Set(docs.map((d) => d.user_id).filter((u) => u !== null))]);
        const byId = new Map(users.map((u) => [u.id, u]));
        const results = docs.map((d) => ({
          id: d.id,
          activity: d.activity,
          scope: 'Plugin',
          item_id: String(d.plugin_id),
          detail: { name: d.plugin_name, ...d.detail },
          user: userSummary(byId.get(d.user_id)),
          created_at: d.created_at,
        }));
        return ok(paginated(ctx.req, services.config.PUBLIC_URL, page, count, results));
      },
    },
  });

  resource(router, services, `${base}unused_ids/`, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx, 'read');
        // No plugin of Chronicle has an enabled config, so every plugin the organization installed is unused.
        const docs = await readStore.find('plugins', { organization_id: organization.id, [`groups.${group}`]: true }, { sort: [['id', 1]], projection: ['id'] });
        return ok(docs.map((d) => d.id));
      },
    },
  });

  /** A write on one plugin: the plugin must exist here (404), be this organization's (403) before the body is read. */
  async function command(ctx: Context, type: 'UpdatePlugin' | 'UninstallPlugin' | 'UpdatePluginSource' | 'CheckPluginForUpdates' | 'UpgradePlugin', data: (doc: Doc) => object = () => ({})) {
    const { organization, level } = await access(ctx, 'write');
    const doc = await pluginOf(ctx, organization);
    if (type === 'UpdatePlugin' || type === 'UninstallPlugin') ensureManagedHere(ownership(doc), organization.id);
    else ensureOwnForActions(ownership(doc), organization.id);
    const { revision } = await commands.handle(
      pluginDecider,
      pluginStream(doc.id),
      { type, data: { ...acting(organization, level), ...data(doc) }, metadata: ctx.metadata } as Parameters<typeof pluginDecider.decide>[0],
      { expectedRevision: ctx.ifMatch },
    );
    return { id: doc.id as number, revision };
  }

  resource(router, services, `${base}:id/`, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx, 'read');
        const doc = await pluginOf(ctx, organization);
        return ok((await serializeAll([doc]))[0]);
      },
    },
    patch: {
      scope: 'plugin:write',
      handler: async (ctx) => {
        const { id, revision } = await command(ctx, 'UpdatePlugin', () => ({ changes: inputOf(parseBody(ctx.req, pluginBody)) }));
        return ok(await serializeOne(id), revision);
      },
    },
    delete: {
      scope: 'plugin:write',
      handler: async (ctx) => {
        await command(ctx, 'UninstallPlugin');
        return empty(204);
      },
    },
  });

  const withRevision = (revision: bigint): Reply => ({ ...empty(200), revision });

  resource(router, services, `${base}:id/check_for_updates/`, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => withRevision((await command(ctx, 'CheckPluginForUpdates')).revision),
    },
  });

  resource(router, services, `${base}:id/update_source/`, {
    patch: {
      scope: 'plugin:write',
      handler: async (ctx) => {
        const { revision } = await command(ctx, 'UpdatePluginSource', () => {
          const body = parseBody(ctx.req, z.record(z.string(), z.unknown()));
          const files = Object.fromEntries(Object.entries(body).filter(([name]) => !UPDATE_FIELDS.has(name)));
          return { files: parseWith(sourceFilesBody, files) };
        });
        return withRevision(revision);
      },
    },
  });

  resource(router, services, `${base}:id/upgrade/`, {
    post: {
      scope: 'plugin:write',
      handler: async (ctx) => withRevision((await command(ctx, 'UpgradePlugin')).revision),
    },
  });

  /** Actions on the organization's own plugin that read only: install access (403), own plugin (404). */
  async function ownPlugin(ctx: Context) {
    const { organization } = await access(ctx, 'write');
    const doc = await pluginOf(ctx, organization);
    ensureOwnForActions(ownership(doc), organization.id);
    return doc;
  }

  resource(router, services, `${base}:id/source/`, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => {
        await ownPlugin(ctx);
        return empty(200);
      },
    },
  });

  resource(router, services, `${base}:id/source_files/`, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => ok((await ownPlugin(ctx)).source_files),
    },
  });

  resource(router, services, `${base}:id/update_check/`, {
    get: {
      scope: 'plugin:read',
      handler: async (ctx) => {
        const doc = await ownPlugin(ctx);
        return ok({
          plugin: (await serializeAll([doc]))[0],
          tag: doc.tag,
          latest_tag: doc.latest_tag,
          checked_at: doc.latest_tag_checked_at,
          update_available: doc.latest_tag !== null && doc.latest_tag !== doc.tag,
        });
      },
    },
  });
}
