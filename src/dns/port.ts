import type { ChallengeLookup } from '../../domain/verified-domain';

/**
 * The one DNS question Chronicle asks: the TXT records of a name. Failures are answers, not exceptions, because
 * a failed lookup is a fact worth recording (a failed verification attempt), never a server error. The answer is
 * exactly what the domain's verification command carries.
 */
export type TxtAnswer = ChallengeLookup;

export interface TxtLookup {
  resolveTxt(name: string): Promise<TxtAnswer>;
}
