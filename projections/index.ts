import { batchExportsProjection } from './batch-exports';
import { dashboardsProjection } from './dashboards';
import { loginSessionsProjection } from './login-sessions';
import { organizationInvitesProjection } from './organization-invites';
import { organizationMembersProjection } from './organization-members';
import { organizationsProjection } from './organizations';
import { personalApiKeysProjection } from './personal-api-keys';
import { pluginsProjection } from './plugins';
import type { Projection } from './projection';
import { eventsProjection } from './events';
import { personsProjection } from './persons';
import { groupsProjection } from './groups';
import { eventDefinitionsProjection } from './event-definitions';
import { usageProjection } from './usage';
import { projectsProjection } from './projects';
import { usersProjection } from './users';
import { verifiedDomainsProjection } from './verified-domains';

/** Every read model of the service. The runner, the rebuild command and the verification all read this list. */
export const allProjections: Projection[] = [
  usersProjection,
  organizationsProjection,
  organizationMembersProjection,
  projectsProjection,
  personalApiKeysProjection,
  organizationInvitesProjection,
  loginSessionsProjection,
  dashboardsProjection,
  batchExportsProjection,
  verifiedDomainsProjection,
  pluginsProjection,
  eventsProjection,
  personsProjection,
  groupsProjection,
  eventDefinitionsProjection,
  usageProjection,
];
