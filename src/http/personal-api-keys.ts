import { Router } from 'express';
import { z } from 'zod';
import { personalApiKeyDecider, personalApiKeyStream } from '../../domain/personal-api-key';
import type { Services } from '../container';
import type { ApiKeyDoc, MemberDoc, ProjectDoc } from '../identity/documents';
import { createPersonalApiKey } from '../identity/provisioning';
import { KNOWN_SCOPES } from '../identity/scopes';
import { requireSession } from './access';
import type { Principal } from './auth';
import { created, empty, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { serializePersonalApiKey } from './serializers';
import { parseBody } from './validation';

const known = new Set<string>(KNOWN_SCOPES);

const createSchema = z.object({
  label: z.string().trim().min(1).max(40),
  scopes: z
    .array(z.string())
    .min(1)
    .superRefine((scopes, ctx) => {
      const unknown = scopes.find((s) => !known.has(s));
      if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `Invalid scope: ${unknown}` });
    }),
  scoped_organizations: z.array(z.uuid()).nullable().optional().transform((v) => [...new Set((v ?? []).map((id) => id.toLowerCase()))]),
  scoped_teams: z.array(z.number().int()).nullable().optional().transform((v) => [...new Set(v ?? [])]),
});

/** The caller's own keys. A key's value is shown once, when it is made; afterwards only its mask. */
export function personalApiKeysRouter(services: Services) {
  const router = Router();
  const own = async (principal: Principal, id: string) => {
    const key = await services.readStore.get<ApiKeyDoc>('personal_api_keys', id);
    if (!key || key.user_id !== principal.user.id) throw apiErrors.notFound();
    return key;
  };

  resource(router, services, '/api/personal_api_keys/', {
    get: {
      scope: null,
      // Paginated like every list (decisions.md), although the reference answers a plain array here.
      handler: async ({ req, principal }) => {
        const page = pageOf(req);
        const filter = { user_id: principal.user.id };
        const count = await services.readStore.count('personal_api_keys', filter);
        const keys = await services.readStore.find<ApiKeyDoc>('personal_api_keys', filter, { sort: [['created_at', -1]], skip: page.offset, limit: page.limit });
        return ok(paginated(req, services.config.PUBLIC_URL, page, count, keys.map(serializePersonalApiKey)));
      },
    },
    post: {
      scope: null,
      handler: async ({ req, principal, metadata }) => {
        requireSession(principal);
        const body = parseBody(req, createSchema);
        const memberships = await services.readStore.find<MemberDoc>('organization_members', { user_id: principal.user.id });
        const mine = new Set(memberships.map((m) => m.organization_id));
        if (body.scoped_organizations.some((id) => !mine.has(id))) {
          throw apiErrors.validation('You must be a member of all organizations that you are scoping the key to.', 'scoped_organizations');
        }
        const projects = await services.readStore.getMany<ProjectDoc>('projects', body.scoped_teams);
        if (projects.length !== body.scoped_teams.length || projects.some((p) => !mine.has(p.organization_id))) {
          throw apiErrors.validation('You must be a member of all teams that you are scoping the key to.', 'scoped_teams');
        }
        const { id, value } = await createPersonalApiKey(services, metadata, {
          userId: principal.user.id,
          label: body.label,
          scopes: body.scopes,
          scopedOrganizations: body.scoped_organizations,
          scopedTeams: body.scoped_teams,
        });
        return created({ ...serializePersonalApiKey(await own(principal, id)), value });
      },
    },
  });
  resource(router, services, '/api/personal_api_keys/:key_id/', {
    get: {
      scope: null,
      handler: async ({ req, principal }) => ok(serializePersonalApiKey(await own(principal, String(req.params.key_id)))),
    },
    delete: {
      scope: null,
      handler: async ({ req, principal, metadata }) => {
        requireSession(principal);
        const key = await own(principal, String(req.params.key_id));
        await services.commands.handle(personalApiKeyDecider, personalApiKeyStream(key.id), {
          type: 'DeletePersonalApiKey',
          data: { userId: principal.user.id },
          metadata,
        });
        return empty(204);
      },
    },
  });
  return router;
}
