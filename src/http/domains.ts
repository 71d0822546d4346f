import { randomBytes, randomUUID } from 'node:crypto';
import { claimUniqueValue, releaseUniqueValue, type UniqueKind } from '../commands/unique-values';
import { Router } from 'express';
import { z } from 'zod';
import { ensureDomainAdmin, verifiedDomainDecider, verifiedDomainStream } from '../../domain/verified-domain';
import { normalizeDomain } from '../../domain/verified-domain/rules';
import type { Services } from '../container';
import type { TxtLookup } from '../dns/port';
import { NodeTxtLookup, parseDnsServers } from '../dns/resolver';
import type { Doc } from '../readstore/port';
import { organizationAccess } from './access';
import { Context, created, empty, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { parseBody } from './validation';

const samlText = z.string().max(10_000).nullable().optional();

const settingsFields = {
  jit_provisioning_enabled: z.boolean().optional(),
  sso_enforcement: z.string().max(28).optional(),
  saml_entity_id: samlText,
  saml_acs_url: samlText,
  saml_x509_cert: samlText,
};

const createBody = z.object({ domain: z.string().max(128), ...settingsFields });
const updateBody = z.object({ domain: z.string().max(128).optional(), ...settingsFields });

export function serializeDomain(doc: Doc) {
  return {
    id: doc.id,
    domain: doc.domain,
    is_verified: doc.is_verified,
    verified_at: doc.verified_at,
    verification_challenge: doc.verification_challenge,
    jit_provisioning_enabled: doc.jit_provisioning_enabled,
    sso_enforcement: doc.sso_enforcement,
    has_saml: doc.has_saml,
    saml_entity_id: doc.saml_entity_id,
    saml_acs_url: doc.saml_acs_url,
    saml_x509_cert: doc.saml_x509_cert,
    // Beside the interface: when the last verification attempt failed (null once verified or never tried).
    last_verification_retry: doc.last_verification_retry,
  };
}

/**
 * Verified domains of an organization. Verification is I/O, so it happens here: the router asks DNS for the
 * challenge record and the command carries the answer, keeping the decider pure. `dns` is replaceable for tests.
 */
/** Domain names are unique across all organizations while their domain lives. */
const DOMAIN_NAME: UniqueKind = {
  kind: 'domain_name',
  holderStream: verifiedDomainStream,
  deletedEvent: 'DomainDeleted',
  takenDetail: 'domain with this domain already exists.',
  attr: 'domain',
};

export function domainsRouter(services: Services, dns: TxtLookup = new NodeTxtLookup(parseDnsServers(services.config.DNS_SERVERS))) {
  const router = Router();
  const base = '/api/organizations/:organization_id/domains/';

  const access = (ctx: Context) => organizationAccess(services, ctx.principal, String(ctx.req.params.organization_id));

  /** Writes: admin first (403 comes before 404 and 400), then the domain of this organization. */
  async function adminAccess(ctx: Context) {
    const { organization, membership } = await access(ctx);
    ensureDomainAdmin(membership.level);
    return { organization, membership };
  }

  async function domainOf(organizationId: string, id: string) {
    const doc = await services.readStore.get('verified_domains', id);
    if (!doc || doc.organization_id !== organizationId) throw apiErrors.notFound();
    return doc;
  }

  const load = (id: string) => services.readStore.get('verified_domains', id);

  resource(router, services, base, {
    get: {
      scope: 'organization:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const page = pageOf(ctx.req);
        const filter = { organization_id: organization.id };
        const count = await services.readStore.count('verified_domains', filter);
        const docs = await services.readStore.find('verified_domains', filter, { sort: [['domain', 1]], skip: page.offset, limit: page.limit });
        return ok(paginated(ctx.req, services.config.PUBLIC_URL, page, count, docs.map(serializeDomain)));
      },
    },
    post: {
      scope: 'organization:write',
      handler: async (ctx) => {
        const { organization, membership } = await adminAccess(ctx);
        const body = parseBody(ctx.req, createBody);
        const id = randomUUID();
        const name = normalizeDomain(body.domain);
        // The claim makes two simultaneous creates of one name race-free; the read model also knows names taken
        // before claims existed.
        await claimUniqueValue(services, ctx.metadata, DOMAIN_NAME, name, id);
        const domainTaken = (await services.readStore.count('verified_domains', { domain: name })) > 0;
        const create = services.commands.handle(verifiedDomainDecider, verifiedDomainStream(id), {
          type: 'CreateDomain',
          data: {
            id,
            organizationId: organization.id,
            actorLevel: membership.level,
            domain: body.domain,
            verificationChallenge: randomBytes(32).toString('base64url'),
            domainTaken,
            samlEntityId: body.saml_entity_id,
            samlAcsUrl: body.saml_acs_url,
            samlX509Cert: body.saml_x509_cert,
          },
          metadata: ctx.metadata,
        });
        const { revision } = await create.catch(async (error) => {
          await releaseUniqueValue(services, ctx.metadata, DOMAIN_NAME, name, id);
          throw error;
        });
        return created(serializeDomain((await load(id))!), revision);
      },
    },
  });

  resource(router, services, `${base}:id/`, {
    get: {
      scope: 'organization:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        return ok(serializeDomain(await domainOf(organization.id, String(ctx.req.params.id))));
      },
    },
    patch: {
      scope: 'organization:write',
      handler: async (ctx) => {
        const { organization, membership } = await adminAccess(ctx);
        const doc = await domainOf(organization.id, String(ctx.req.params.id));
        const body = parseBody(ctx.req, updateBody);
        const { revision } = await services.commands.handle(
          verifiedDomainDecider,
          verifiedDomainStream(doc.id),
          {
            type: 'UpdateDomain',
            data: {
              organizationId: organization.id,
              actorLevel: membership.level,
              domain: body.domain,
              jitProvisioningEnabled: body.jit_provisioning_enabled,
              ssoEnforcement: body.sso_enforcement,
              samlEntityId: body.saml_entity_id,
              samlAcsUrl: body.saml_acs_url,
              samlX509Cert: body.saml_x509_cert,
            },
            metadata: ctx.metadata,
          },
          { expectedRevision: ctx.ifMatch },
        );
        return ok(serializeDomain((await load(doc.id))!), revision);
      },
    },
    delete: {
      scope: 'organization:write',
      handler: async (ctx) => {
        const { organization, membership } = await adminAccess(ctx);
        const doc = await domainOf(organization.id, String(ctx.req.params.id));
        await services.commands.handle(
          verifiedDomainDecider,
          verifiedDomainStream(doc.id),
          { type: 'DeleteDomain', data: { organizationId: organization.id, actorLevel: membership.level }, metadata: ctx.metadata },
          { expectedRevision: ctx.ifMatch },
        );
        // Frees the name (a crash before this leaves a claim whose holder is deleted: the next claim takes it over).
        await releaseUniqueValue(services, ctx.metadata, DOMAIN_NAME, doc.domain, doc.id);
        return empty(204);
      },
    },
  });

  resource(router, services, `${base}:id/verify/`, {
    post: {
      scope: 'organization:write',
      handler: async (ctx) => {
        const { organization, membership } = await adminAccess(ctx);
        const doc = await domainOf(organization.id, String(ctx.req.params.id));
        // The body (the create fields) plays no part in verification, but a malformed one is still refused.
        parseBody(ctx.req, updateBody);
        const recordName = `${services.config.DOMAIN_VERIFICATION_PREFIX}.${doc.domain}`;
        // No DNS round trip for a verified domain: the decider refuses it whatever DNS would say.
        const lookup = doc.is_verified ? ({ outcome: 'no_record' } as const) : await dns.resolveTxt(recordName);
        const { revision } = await services.commands.handle(verifiedDomainDecider, verifiedDomainStream(doc.id), {
          type: 'RecordDomainVerification',
          data: { organizationId: organization.id, actorLevel: membership.level, recordName, lookup },
          metadata: ctx.metadata,
        });
        return { ...empty(200), revision };
      },
    },
  });

  // Beside the interface: the recent verification attempts (newest first), what was asked and what came back.
  resource(router, services, `${base}:id/verification_attempts/`, {
    get: {
      scope: 'organization:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const doc = await domainOf(organization.id, String(ctx.req.params.id));
        return ok([...doc.verification_attempts].reverse());
      },
    },
  });

  return router;
}
