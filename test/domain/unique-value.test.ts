import { uniqueValueDecider } from '../../domain/unique-value';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(uniqueValueDecider);
const at = '2026-01-01T00:00:00.000Z';
const claim = (holder: string, goneHolder: string | null = null) => ({
  type: 'ClaimValue' as const,
  data: { holder, goneHolder, takenDetail: 'taken', attr: 'domain' },
  metadata: meta(at),
});

describe('unique value decider', () => {
  it('gives a free value to the first claimant, and again to it alone', () => {
    spec.given([]).when(claim('a')).then([{ type: 'ValueClaimed', data: { holder: 'a', at } }]);
    spec.given([{ type: 'ValueClaimed', data: { holder: 'a', at } }]).when(claim('a')).thenNothingHappened();
    spec.given([{ type: 'ValueClaimed', data: { holder: 'a', at } }]).when(claim('b')).thenThrows({ code: 'unique', attr: 'domain', detail: 'taken' });
  });

  it('lets a released value be claimed again', () => {
    spec
      .given([{ type: 'ValueClaimed', data: { holder: 'a', at } }, { type: 'ValueReleased', data: { holder: 'a', at } }])
      .when(claim('b'))
      .then([{ type: 'ValueClaimed', data: { holder: 'b', at } }]);
  });

  it('takes a value over only from the holder named as gone, never from one that came in between', () => {
    const heldByA = [{ type: 'ValueClaimed' as const, data: { holder: 'a', at } }];
    spec.given(heldByA).when(claim('b', 'a')).then([
      { type: 'ValueReleased', data: { holder: 'a', at } },
      { type: 'ValueClaimed', data: { holder: 'b', at } },
    ]);
    spec.given(heldByA).when(claim('b', 'x')).thenThrows({ code: 'unique' });
  });

  it('releases only for its holder', () => {
    const heldByA = [{ type: 'ValueClaimed' as const, data: { holder: 'a', at } }];
    spec.given(heldByA).when({ type: 'ReleaseValue', data: { holder: 'b' }, metadata: meta(at) }).thenNothingHappened();
    spec.given(heldByA).when({ type: 'ReleaseValue', data: { holder: 'a' }, metadata: meta(at) }).then([{ type: 'ValueReleased', data: { holder: 'a', at } }]);
  });
});
