import { personalApiKeyDecider } from '../../domain/personal-api-key';
import type { PersonalApiKeyEvent } from '../../domain/personal-api-key';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(personalApiKeyDecider);
const at = '2026-01-01T00:00:00.000Z';
const created: PersonalApiKeyEvent[] = [
  { type: 'PersonalApiKeyCreated', data: { id: 'k', userId: 1, label: 'l', secureValue: 'h', maskValue: 'phx_...abcd', scopes: ['*'], scopedOrganizations: [], scopedTeams: [], at } },
];

describe('personal API key aggregate', () => {
  it('is deleted by its owner only, once', () => {
    spec.given(created).when({ type: 'DeletePersonalApiKey', data: { userId: 1 }, metadata: meta(at) }).then([{ type: 'PersonalApiKeyDeleted', data: { id: 'k', userId: 1, at } }]);
    spec.given(created).when({ type: 'DeletePersonalApiKey', data: { userId: 2 }, metadata: meta(at, 2) }).thenThrows({ kind: 'not_found' });
    spec.given([...created, { type: 'PersonalApiKeyDeleted', data: { id: 'k', userId: 1, at } }]).when({ type: 'DeletePersonalApiKey', data: { userId: 1 }, metadata: meta(at) }).thenThrows({ kind: 'not_found' });
  });

  it('records use at most once an hour, and never for a deleted key', () => {
    const use = (now: string) => ({ type: 'RecordPersonalApiKeyUse' as const, data: {}, metadata: meta(now) });
    const used: PersonalApiKeyEvent = { type: 'PersonalApiKeyUsed', data: { id: 'k', at } };
    spec.given(created).when(use(at)).then([used]);
    spec.given([...created, used]).when(use('2026-01-01T00:59:59.999Z')).thenNothingHappened();
    spec.given([...created, used]).when(use('2026-01-01T01:00:00.000Z')).then([{ type: 'PersonalApiKeyUsed', data: { id: 'k', at: '2026-01-01T01:00:00.000Z' } }]);
    spec.given([...created, { type: 'PersonalApiKeyDeleted', data: { id: 'k', userId: 1, at } }]).when(use(at)).thenNothingHappened();
    spec.given([]).when(use(at)).thenNothingHappened();
  });
});
