import type { Upcaster } from '../upcaster';

/**
 * DomainVerificationFailed v1 (the first development builds) kept only the record name and the time; v2 adds what
 * the lookup found. A v1 failure was always a missing or unmatched record: DNS errors were not recorded then.
 */
export const verifiedDomainUpcasters: Upcaster[] = [
  {
    type: 'DomainVerificationFailed',
    from: 1,
    up: (data) => ({ outcome: 'no_record', detail: 'No matching TXT record was found (recorded before outcomes were kept).', ...data }),
  },
];
