import { MembershipLevel } from '../organization/levels';
import { denied, invalid } from '../errors';

/** The reference product's domain pattern; names are compared lower-cased. */
export const DOMAIN_PATTERN = /^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$/;

export const SSO_ENFORCEMENT_VALUES = ['', 'google-oauth2', 'github', 'gitlab', 'saml'] as const;
export type SsoEnforcement = (typeof SSO_ENFORCEMENT_VALUES)[number];

export function normalizeDomain(domain: string): string {
  const name = domain.trim().toLowerCase();
  if (!DOMAIN_PATTERN.test(name)) throw invalid('Please enter a valid domain or subdomain name.', 'domain');
  return name;
}

export function checkSsoEnforcement(value: string): SsoEnforcement {
  if (!(SSO_ENFORCEMENT_VALUES as readonly string[]).includes(value)) throw invalid(`"${value}" is not a valid choice.`, 'sso_enforcement', 'invalid_choice');
  return value as SsoEnforcement;
}

/**
 * Domains decide who may sign in to the organization, so every change needs an organization admin. The router
 * calls this before it reads the body (403 comes before 400); decide calls it again, so the rule holds on any path.
 */
export function ensureDomainAdmin(actorLevel: number) {
  if (actorLevel < MembershipLevel.admin) throw denied('Your organization access level is insufficient.');
}

export const hasSaml = (s: { samlEntityId: string | null; samlAcsUrl: string | null; samlX509Cert: string | null }) =>
  Boolean(s.samlEntityId && s.samlAcsUrl && s.samlX509Cert);
