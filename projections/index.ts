import { dashboardsProjection } from './dashboards';
import { organizationMembersProjection } from './organization-members';
import { organizationsProjection } from './organizations';
import { personalApiKeysProjection } from './personal-api-keys';
import type { Projection } from './projection';
import { projectsProjection } from './projects';
import { usersProjection } from './users';

/** Every read model of the service. The runner, the rebuild command and the verification all read this list. */
export const allProjections: Projection[] = [
  usersProjection,
  organizationsProjection,
  organizationMembersProjection,
  projectsProjection,
  personalApiKeysProjection,
  dashboardsProjection,
];
