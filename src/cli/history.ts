import 'reflect-metadata';
import { loadConfig } from '../config';
import { createContainer, servicesOf } from '../container';
import { toActivityEntries } from '../history/activity';
import { historySources } from '../history/sources';
import { documentTimeline } from '../history/timeline';
import { Logger } from '../logger';

/** npm run history -- <resource> <id>: the timeline of one resource (who, when, what changed), oldest first. */
async function main() {
  const [name, id] = process.argv.slice(2);
  const source = historySources.find((s) => s.name === name);
  const usage = `usage: npm run history -- <${historySources.map((s) => s.name).join('|')}> <id>\n` +
    '  (members: <organization id>:<user id>, invites: <organization id>:<invite id>)\n';
  if (!source || !id) {
    process.stderr.write(usage);
    process.exit(2);
  }
  const item = source.byId(id);
  if (!item) {
    process.stderr.write(`not a ${name} id: ${id}\n${usage}`);
    process.exit(2);
  }
  const services = servicesOf(createContainer(loadConfig(), new Logger('warn')));
  const timeline = await documentTimeline(services.eventStore, source.projection, item.stream, item.key, source.hidden);
  if (timeline.length === 0) process.stdout.write(`no history for ${name} ${id}\n`);
  const entries = await toActivityEntries(services, timeline.map((entry) => ({ source, item, entry })));
  entries.forEach((entry, i) => {
    const who = entry.user?.email ?? 'system';
    process.stdout.write(`${entry.created_at}  r${timeline[i].event.revision}  ${who}  ${entry.activity}  ${entry.detail.name ?? ''}\n`);
    for (const change of entry.detail.changes) {
      process.stdout.write(`    ${change.field}: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}\n`);
    }
  });
  await services.eventStore.close();
  await services.readStore.close();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
