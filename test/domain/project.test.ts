import { projectDecider } from '../../domain/project';
import type { ProjectEvent } from '../../domain/project';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(projectDecider);
const at = '2026-01-01T00:00:00.000Z';
const created: ProjectEvent[] = [{ type: 'ProjectCreated', data: { id: 3, uuid: 'p', organizationId: 'o', name: 'P', apiToken: 'phc_old', at } }];

describe('project aggregate', () => {
  it('renames and rotates its token, naming the organization for the read models', () => {
    spec.given(created).when({ type: 'UpdateProject', data: { name: 'Q' }, metadata: meta(at) }).then([{ type: 'ProjectUpdated', data: { organizationId: 'o', name: 'Q', at } }]);
    spec.given(created).when({ type: 'ResetProjectToken', data: { apiToken: 'phc_new' }, metadata: meta(at) }).then([{ type: 'ProjectTokenReset', data: { organizationId: 'o', apiToken: 'phc_new', at } }]);
  });
  it('refuses a second creation and changes to a missing project', () => {
    spec.given(created).when({ type: 'CreateProject', data: { id: 3, uuid: 'p', organizationId: 'o', name: 'P', apiToken: 'phc_x' }, metadata: meta(at) }).thenThrows({ kind: 'conflict' });
    spec.given([]).when({ type: 'UpdateProject', data: { name: 'Q' }, metadata: meta(at) }).thenThrows({ kind: 'not_found', detail: 'Project not found.' });
  });
});
