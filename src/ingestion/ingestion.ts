import type { Services } from '../container';
import { ApiError } from '../http/errors';
import type { ProjectDoc } from '../identity/documents';
import { invalidApiKey, parseCaptureRequest } from './capture-request';
import { DirectIngestionWriter, IndexedIngestionWriter, ingestionMetadata, IngestionWriter, MAX_EVENT_BYTES, splitIntoAppends, toNewEvent } from './writer';

/** The write side of ingestion: a parsed capture body in, durable events in the project's stream out. */
export class Ingestion {
  constructor(
    private readonly services: Pick<Services, 'readStore'>,
    private readonly writer: IngestionWriter,
  ) {}

  static for(services: Services) {
    // The embedded log dedupes by id on its own; EventStoreDB needs the index (see IndexedIngestionWriter).
    const writer = services.config.EVENTSTORE_URL
      ? new IndexedIngestionWriter(services.eventStore, services.readStore)
      : new DirectIngestionWriter(services.eventStore);
    return new Ingestion(services, writer);
  }

  /** Resolves once every event of the request is durable; throws ApiError for anything the client must fix. */
  async capture(body: unknown, nowMs = Date.now()): Promise<{ projectId: number; count: number }> {
    const request = parseCaptureRequest(body, nowMs);
    // The projects read model is awaited by token resets, so an old token stops working at once.
    const [project] = await this.services.readStore.find<ProjectDoc>('projects', { api_token: request.token }, { limit: 1 });
    if (!project) throw invalidApiKey();
    const metadata = ingestionMetadata();
    const sized = request.events.map((e, index) => {
      const s = toNewEvent({ ...e, project_id: project.id }, metadata);
      if (s.bytes > MAX_EVENT_BYTES) {
        throw new ApiError(400, 'validation_error', 'invalid_payload', 'Invalid payload: maximum event size exceeded.', `batch__${index}`);
      }
      return s;
    });
    await this.writer.write(project.id, splitIntoAppends(sized));
    return { projectId: project.id, count: sized.length };
  }
}
