import type { Upcaster } from './upcaster';
import { verifiedDomainUpcasters } from './verified-domain/upcasters';

/** Every upcaster of every aggregate: readers apply them to events of older schema versions. */
export const allUpcasters: Upcaster[] = [...verifiedDomainUpcasters];
