import { parseCaptureRequest } from '../../src/ingestion/capture-request';
import { ApiError } from '../../src/http/errors';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const KEY = 'phc_key';

function error(body: unknown): ApiError {
  try {
    parseCaptureRequest(body, NOW);
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected a refusal');
}

describe('reading a capture body', () => {
  it('finds the distinct id at the top level, as $distinct_id or in properties, and stores it in both places', () => {
    const { events } = parseCaptureRequest(
      { api_key: KEY, batch: [{ event: 'a', distinct_id: 'x' }, { event: 'b', $distinct_id: 'y' }, { event: 'c', properties: { distinct_id: 42 } }] },
      NOW,
    );
    expect(events.map((e) => [e.distinct_id, e.properties.distinct_id])).toEqual([['x', 'x'], ['y', 'y'], ['42', '42']]);
  });

  it('corrects skew with sent_at, honours $ignore_sent_at and offset, clamps the far future', () => {
    const sentAt = '2020-01-01T00:00:00.000Z';
    const { events } = parseCaptureRequest(
      {
        api_key: KEY,
        sent_at: sentAt,
        batch: [
          { event: 'a', distinct_id: 'd', timestamp: '2019-12-31T23:59:00.000Z' },
          { event: 'b', distinct_id: 'd', timestamp: '2019-12-31T23:59:00.000Z', properties: { $ignore_sent_at: true } },
          { event: 'c', distinct_id: 'd', offset: 5000 },
          { event: 'd', distinct_id: 'd', timestamp: '2020-01-03T00:00:00.000Z' },
        ],
      },
      NOW,
    );
    expect(events.map((e) => e.timestamp)).toEqual([
      '2026-03-01T11:59:00.000Z',
      '2019-12-31T23:59:00.000Z',
      '2026-03-01T11:59:55.000Z',
      '2026-03-01T12:00:00.000Z',
    ]);
  });

  it('keeps historical timestamps as given and flags every event of a historical batch', () => {
    const { events, historicalMigration } = parseCaptureRequest(
      { api_key: KEY, historical_migration: true, sent_at: '2026-03-01T11:00:00Z', batch: [{ event: 'a', distinct_id: 'd', timestamp: '2021-05-05T10:00:00+02:00' }] },
      NOW,
    );
    expect(historicalMigration).toBe(true);
    expect(events[0]).toMatchObject({ timestamp: '2021-05-05T08:00:00.000Z', historical_migration: true, received_at: '2026-03-01T12:00:00.000Z' });
    // Only the batch form honours the flag, as in the reference.
    expect(parseCaptureRequest({ api_key: KEY, historical_migration: true, event: 'a', distinct_id: 'd' }, NOW).events[0].historical_migration).toBe(false);
  });

  it('names the field of a single event without an index', () => {
    expect(error({ api_key: KEY, event: 'a' })).toMatchObject({ status: 400, attr: 'distinct_id', code: 'required' });
    expect(error({ api_key: KEY, batch: [{ event: 'a', distinct_id: 'd', properties: [] }] })).toMatchObject({ attr: 'batch__0__properties' });
  });

  it('checks the token shape as the reference does', () => {
    expect(error({ batch: [{ event: 'a', distinct_id: 'd' }] })).toMatchObject({ status: 401, code: 'missing_api_key' });
    expect(error({ api_key: 7, batch: [{ event: 'a', distinct_id: 'd' }] })).toMatchObject({ code: 'not_string' });
    expect(error({ api_key: '', batch: [{ event: 'a', distinct_id: 'd' }] })).toMatchObject({ code: 'empty' });
    expect(error({ api_key: 'x'.repeat(65), batch: [{ event: 'a', distinct_id: 'd' }] })).toMatchObject({ code: 'too_long' });
    expect(error({ api_key: 'phc_é', batch: [{ event: 'a', distinct_id: 'd' }] })).toMatchObject({ code: 'not_ascii' });
    expect(error([{ event: 'a', distinct_id: 'd', api_key: 'phc_a' }, { event: 'a', distinct_id: 'd', api_key: 'phc_b' }])).toMatchObject({ status: 401 });
  });
});
