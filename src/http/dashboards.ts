import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import {
  Actor,
  canEdit,
  dashboardDecider,
  DashboardSource,
  dashboardStream,
  NO_EDIT_RIGHTS,
  Tile,
  TilePatch,
  TEXT_TILE_MAX_LENGTH,
  accessViewOf,
} from '../../domain/dashboard';
import type { DashboardDoc } from '../../projections/dashboards';
import { membershipId } from '../../projections/organization-members';
import { allocateId } from '../commands/ids';
import type { Services } from '../container';
import { serializeCollaborator, serializeDashboard, serializeDashboardListItem, serializeSharing } from '../dashboards/serializer';
import { builtInTemplate, templateTileCount } from '../dashboards/templates';
import type { MemberDoc, ProjectDoc, UserDoc } from '../identity/documents';
import { generateToken } from '../identity/secrets';
import { projectAccess, ProjectAccess } from './access';
import type { Principal } from './auth';
import { Context, created, empty, ok, Reply, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { parseBody, parseQuery } from './validation';

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const filters = z.custom<Record<string, unknown>>(isPlainObject, { message: 'Filters must be a dictionary' });
const layouts = z.record(z.string(), z.unknown());
const textBody = z.string().max(TEXT_TILE_MAX_LENGTH);

const tileInput = z.object({
  id: z.number().int().nullish(),
  text: z.object({ body: textBody }).nullish(),
  layouts: layouts.nullish(),
  color: z.string().nullish(),
  show_description: z.boolean().nullish(),
  transparent_background: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
});
type TileInput = z.output<typeof tileInput>;

const dashboardBody = z.object({
  name: z.string().max(400).nullish(),
  description: z.string().nullish(),
  pinned: z.boolean().optional(),
  deleted: z.boolean().optional(),
  use_template: z.string().nullish(),
  use_dashboard: z.number().int().nullish(),
  delete_insights: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
  restriction_level: z.literal([21, 37]).optional(),
  filters: filters.optional(),
  tiles: z.array(tileInput).optional(),
});

const moveTileBody = z.object({ tile: z.object({ id: z.number().int() }), toDashboard: z.number().int() });

const templateTile = z.looseObject({
  type: z.enum(['TEXT', 'INSIGHT']),
  body: textBody.optional(),
  layouts: layouts.optional(),
  color: z.string().nullish(),
});
const templateJsonBody = z.object({
  template: z.object({
    template_name: z.string(),
    dashboard_description: z.string(),
    dashboard_filters: filters,
    tiles: z.array(templateTile).min(1),
    tags: z.array(z.string()).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
  }),
});

const collaboratorBody = z.object({ user_uuid: z.guid(), level: z.number().int() });
const sharingBody = z.object({ enabled: z.boolean().optional() });
const listQuery = z.object({ pinned: z.enum(['true', 'false', '1', '0']).optional() });

const actorOf = (principal: Principal, access: ProjectAccess): Actor => ({ userId: principal.user.id, organizationLevel: access.membership.level });

/** Integer tile ids, in order, from the installation-wide counter. */
async function allocateTileIds(services: Services, count: number) {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await allocateId(services.eventStore, 'tile'));
  return ids;
}

/** The entries of a `tiles` body as tile patches, new tiles receiving freshly allocated ids. */
async function tilePatches(services: Services, tiles: TileInput[], treatAllAsNew: boolean): Promise<TilePatch[]> {
  const patches = tiles.map((t) => ({
    id: treatAllAsNew ? undefined : (t.id ?? undefined),
    text: t.text ?? undefined,
    layouts: t.layouts ?? undefined,
    color: t.color,
    showDescription: t.show_description,
    transparentBackground: t.transparent_background,
    deleted: t.deleted ?? undefined,
  })) as TilePatch[];
  const fresh = patches.filter((p) => p.id === undefined && !p.deleted);
  const ids = await allocateTileIds(services, fresh.length);
  fresh.forEach((p, i) => (p.newId = ids[i]));
  return patches;
}

export function dashboardsRouter(services: Services) {
  const router = Router();
  const base = '/api/projects/:project_id/dashboards';
  const docs = services.readStore;

  /** The dashboard of this project named by the URL; another project's or a soft-deleted one is not found. */
  async function dashboardOf(project: ProjectDoc, idParam: unknown, options: { includeDeleted?: boolean } = {}) {
    const id = typeof idParam === 'string' && /^\d+$/.test(idParam) ? Number(idParam) : NaN;
    const doc = Number.isSafeInteger(id) ? await docs.get<DashboardDoc>('dashboards', id) : null;
    if (!doc || doc.project_id !== project.id || (doc.deleted && !options.includeDeleted)) throw apiErrors.notFound();
    return doc;
  }

  const users = async (ids: (number | null)[]) => {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    const found = wanted.length ? await docs.getMany<UserDoc>('users', wanted) : [];
    return new Map(found.map((u) => [u.id, u]));
  };

  async function full(id: number, actor: Actor, status: 200 | 201 = 200): Promise<Reply> {
    const doc = await docs.get<DashboardDoc>('dashboards', id);
    if (!doc) throw apiErrors.notFound();
    const creator = (await users([doc.created_by])).get(doc.created_by ?? -1);
    const body = serializeDashboard(doc, creator, actor);
    return status === 201 ? created(body, BigInt(doc.revision)) : ok(body, BigInt(doc.revision));
  }

  /** A source for use_dashboard: a live dashboard of the same project, its tiles copied under new ids. */
  async function copyOf(project: ProjectDoc, id: number): Promise<DashboardSource | null> {
    const { state } = await services.commands.load(dashboardDecider, dashboardStream(id));
    if (state.status !== 'active' || state.projectId !== project.id || state.deleted) return null;
    const ids = await allocateTileIds(services, state.tiles.length);
    return { filters: state.filters, tiles: state.tiles.map((t, i) => ({ ...t, id: ids[i] })) };
  }

  async function createDashboard(
    ctx: Context,
    access: ProjectAccess,
    input: Omit<z.output<typeof dashboardBody>, 'tiles'> & { tiles: TilePatch[]; template?: DashboardSource },
  ) {
    const id = await allocateId(services.eventStore, 'dashboard');
    const key = input.use_template || undefined;
    const useTemplate = input.template
      ? { key: '', found: input.template }
      : key
        ? { key, found: builtInTemplate(key, await allocateTileIds(services, templateTileCount(key))) }
        : undefined;
    const useDashboard =
      input.use_dashboard !== undefined && input.use_dashboard !== null
        ? { id: input.use_dashboard, found: useTemplate ? null : await copyOf(access.project, input.use_dashboard) }
        : undefined;
    await services.commands.handle(dashboardDecider, dashboardStream(id), {
      type: 'CreateDashboard',
      data: {
        id,
        projectId: access.project.id,
        name: input.name ?? '',
        description: input.description ?? '',
        pinned: input.pinned ?? false,
        deleted: input.deleted ?? false,
        tags: input.tags ?? [],
        restrictionLevel: input.restriction_level ?? 21,
        filters: input.filters,
        useTemplate,
        useDashboard,
        tiles: input.tiles,
        sharingAccessToken: generateToken('', 22),
        createdBy: ctx.principal.user.id,
      },
      metadata: ctx.metadata,
    });
    return id;
  }

  resource(router, services, `${base}/`, {
    get: {
      scope: 'dashboard:read',
      handler: async ({ req, principal }) => {
        const access = await projectAccess(services, principal, String(req.params.project_id));
        const query = parseQuery(req, listQuery);
        const page = pageOf(req);
        const filter: Record<string, unknown> = { project_id: access.project.id, deleted: false };
        if (query.pinned) filter.pinned = query.pinned === 'true' || query.pinned === '1';
        const count = await docs.count('dashboards', filter);
        const found = await docs.find<DashboardDoc>('dashboards', filter, {
          sort: [['pinned', -1], ['name', 1], ['id', 1]],
          skip: page.offset,
          limit: page.limit,
        });
        const creators = await users(found.map((d) => d.created_by));
        const actor = actorOf(principal, access);
        const results = found.map((d) => serializeDashboardListItem(d, creators.get(d.created_by ?? -1), actor));
        return ok(paginated(req, services.config.PUBLIC_URL, page, count, results));
      },
    },
    post: {
      scope: 'dashboard:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const body = parseBody(ctx.req, dashboardBody);
        const tiles = await tilePatches(services, body.tiles ?? [], true);
        const id = await createDashboard(ctx, access, { ...body, tiles });
        return full(id, actorOf(ctx.principal, access), 201);
      },
    },
  });

  // Registered before `/:id/` so the action's name is never read as a dashboard id.
  resource(router, services, `${base}/create_from_template_json/`, {
    post: {
      scope: 'dashboard:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const { template } = parseBody(ctx.req, templateJsonBody);
        const ids = await allocateTileIds(services, template.tiles.length);
        const tiles: Tile[] = template.tiles.map((t, i) => {
          const { type, body, layouts: tileLayouts, color, ...insight } = t;
          if (type === 'TEXT' && body === undefined) throw apiErrors.validation('This field is required.', `template__tiles__${i}__body`, 'required');
          return {
            id: ids[i],
            layouts: tileLayouts ?? {},
            color: color ?? null,
            text: type === 'TEXT' ? { body: body! } : null,
            insight: type === 'INSIGHT' ? insight : null,
            showDescription: null,
            transparentBackground: null,
          };
        });
        const id = await createDashboard(ctx, access, {
          name: template.template_name,
          description: template.dashboard_description,
          tags: template.tags,
          tiles: [],
          template: { filters: template.dashboard_filters, tiles },
        });
        return full(id, actorOf(ctx.principal, access));
      },
    },
  });

  resource(router, services, `${base}/:id/`, {
    get: {
      scope: 'dashboard:read',
      handler: async ({ req, principal }) => {
        const access = await projectAccess(services, principal, String(req.params.project_id));
        const doc = await dashboardOf(access.project, req.params.id);
        return full(doc.id, actorOf(principal, access));
      },
    },
    patch: {
      scope: 'dashboard:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const doc = await dashboardOf(access.project, ctx.req.params.id, { includeDeleted: true });
        const body = parseBody(ctx.req, dashboardBody);
        const actor = actorOf(ctx.principal, access);
        await services.commands.handle(
          dashboardDecider,
          dashboardStream(doc.id),
          {
            type: 'UpdateDashboard',
            data: {
              actor,
              name: body.name === null ? '' : body.name,
              description: body.description === null ? '' : body.description,
              pinned: body.pinned,
              tags: body.tags,
              filters: body.filters,
              restrictionLevel: body.restriction_level,
              deleted: body.deleted,
              tiles: body.tiles && (await tilePatches(services, body.tiles, false)),
            },
            metadata: ctx.metadata,
          },
          { expectedRevision: ctx.ifMatch },
        );
        return full(doc.id, actor);
      },
    },
    // Hard delete is refused (decisions.md): 405 with an empty body, once the caller may write dashboards here.
    delete: {
      scope: 'dashboard:write',
      handler: async ({ req, principal }) => {
        await projectAccess(services, principal, String(req.params.project_id));
        return empty(405);
      },
    },
  });

  resource(router, services, `${base}/:id/move_tile/`, {
    patch: {
      scope: 'dashboard:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const source = await dashboardOf(access.project, ctx.req.params.id);
        const body = parseBody(ctx.req, moveTileBody);
        const actor = actorOf(ctx.principal, access);
        const { state } = await services.commands.load(dashboardDecider, dashboardStream(source.id));
        const tile = state.status === 'active' ? state.tiles.find((t) => t.id === body.tile.id) : undefined;
        if (!tile || state.status !== 'active') throw apiErrors.notFound();
        const target = await dashboardOf(access.project, String(body.toDashboard));
        if (target.id === source.id) return empty(200);
        // Checked before the first step, so a refusal on the source never leaves the tile on both dashboards.
        if (!canEdit(accessViewOf(state, actor.userId), actor)) throw apiErrors.permissionDenied(NO_EDIT_RIGHTS);
        await services.commands.handle(dashboardDecider, dashboardStream(target.id), {
          type: 'MoveTileIn',
          data: { actor, tile, fromDashboardId: source.id },
          metadata: ctx.metadata,
        });
        await services.commands.handle(dashboardDecider, dashboardStream(source.id), {
          type: 'MoveTileOut',
          data: { actor, tileId: tile.id, toDashboardId: target.id },
          metadata: ctx.metadata,
        });
        return empty(200);
      },
    },
  });

  resource(router, services, `${base}/:dashboard_id/collaborators/`, {
    get: {
      scope: 'dashboard:read',
      handler: async ({ req, principal }) => {
        const access = await projectAccess(services, principal, String(req.params.project_id));
        const doc = await dashboardOf(access.project, req.params.dashboard_id);
        const collaborators = [...doc.collaborators].sort((a, b) => a.added_at.localeCompare(b.added_at));
        const known = await users(collaborators.map((c) => c.user_id));
        return ok(collaborators.map((c) => serializeCollaborator(doc, c, known.get(c.user_id))));
      },
    },
    post: {
      scope: 'dashboard:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const doc = await dashboardOf(access.project, ctx.req.params.dashboard_id);
        const body = parseBody(ctx.req, collaboratorBody);
        const uuid = body.user_uuid.toLowerCase();
        const user = (await docs.find<UserDoc>('users', { uuid }, { limit: 1 }))[0];
        const membership = user?.is_active
          ? await docs.get<MemberDoc>('organization_members', membershipId(access.project.organization_id, user.id))
          : null;
        await services.commands.handle(dashboardDecider, dashboardStream(doc.id), {
          type: 'AddCollaborator',
          data: {
            actor: actorOf(ctx.principal, access),
            id: randomUUID(),
            level: body.level,
            user: user?.is_active ? { id: user.id, uuid: user.uuid, hasProjectAccess: !!membership, organizationLevel: membership?.level ?? 0 } : null,
          },
          metadata: ctx.metadata,
        });
        const updated = await dashboardOf(access.project, String(doc.id));
        const collaborator = updated.collaborators.find((c) => c.user_uuid === uuid);
        if (!collaborator) throw apiErrors.notFound();
        return created(serializeCollaborator(updated, collaborator, user), BigInt(updated.revision));
      },
    },
  });

  resource(router, services, `${base}/:dashboard_id/collaborators/:user_uuid/`, {
    delete: {
      scope: 'dashboard:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const doc = await dashboardOf(access.project, ctx.req.params.dashboard_id);
        await services.commands.handle(dashboardDecider, dashboardStream(doc.id), {
          type: 'RemoveCollaborator',
          data: { actor: actorOf(ctx.principal, access), userUuid: String(ctx.req.params.user_uuid) },
          metadata: ctx.metadata,
        });
        return empty(204);
      },
    },
  });

  resource(router, services, `${base}/:dashboard_id/sharing/`, {
    get: {
      scope: 'sharing_configuration:read',
      handler: async ({ req, principal }) => {
        const access = await projectAccess(services, principal, String(req.params.project_id));
        const doc = await dashboardOf(access.project, req.params.dashboard_id);
        return ok(serializeSharing(doc), BigInt(doc.revision));
      },
    },
    patch: {
      scope: 'sharing_configuration:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const doc = await dashboardOf(access.project, ctx.req.params.dashboard_id);
        const body = parseBody(ctx.req, sharingBody);
        if (body.enabled !== undefined) {
          await services.commands.handle(
            dashboardDecider,
            dashboardStream(doc.id),
            { type: 'ChangeSharing', data: { actor: actorOf(ctx.principal, access), enabled: body.enabled }, metadata: ctx.metadata },
            { expectedRevision: ctx.ifMatch },
          );
        }
        const updated = await dashboardOf(access.project, String(doc.id));
        return ok(serializeSharing(updated), BigInt(updated.revision));
      },
    },
  });

  resource(router, services, `${base}/:dashboard_id/sharing/refresh/`, {
    post: {
      scope: 'sharing_configuration:write',
      handler: async (ctx) => {
        const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        const doc = await dashboardOf(access.project, ctx.req.params.dashboard_id);
        await services.commands.handle(dashboardDecider, dashboardStream(doc.id), {
          type: 'RefreshSharingToken',
          data: { actor: actorOf(ctx.principal, access), accessToken: generateToken('', 22) },
          metadata: ctx.metadata,
        });
        const updated = await dashboardOf(access.project, String(doc.id));
        return ok(serializeSharing(updated), BigInt(updated.revision));
      },
    },
  });

  return router;
}
