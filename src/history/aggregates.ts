import { batchExportDecider } from '../../domain/batch-export';
import { batchExportRunDecider } from '../../domain/batch-export/run';
import { dashboardDecider } from '../../domain/dashboard';
import type { Decider } from '../../domain/decider';
import { organizationDecider } from '../../domain/organization';
import { personalApiKeyDecider } from '../../domain/personal-api-key';
import { pluginDecider } from '../../domain/plugin';
import { projectDecider } from '../../domain/project';
import { sessionDecider } from '../../domain/session';
import { uniqueValueDecider } from '../../domain/unique-value';
import { userDecider } from '../../domain/user';
import { verifiedDomainDecider } from '../../domain/verified-domain';

/** Which decider folds the streams of each category: what the verification replays the whole log with. */
export const aggregatesByCategory: Record<string, Pick<Decider<any, any, any>, 'evolve' | 'initialState'>> = {
  user: userDecider,
  organization: organizationDecider,
  project: projectDecider,
  personal_api_key: personalApiKeyDecider,
  login_session: sessionDecider,
  dashboard: dashboardDecider,
  domain: verifiedDomainDecider,
  plugin: pluginDecider,
  batch_export: batchExportDecider,
  batch_export_run: batchExportRunDecider,
  unique_value: uniqueValueDecider,
};
