import type { DashboardSource, Tile } from '../../domain/dashboard';

type TemplateTile = Omit<Tile, 'id'>;

const text = (body: string, x: number, y: number, w = 6, h = 5): TemplateTile => ({
  layouts: { sm: { x, y, w, h }, xs: { x: 0, y: y * 2 + x, w: 1, h } },
  color: null,
  text: { body },
  insight: null,
  showDescription: null,
  transparentBackground: null,
});

/**
 * The built-in templates `use_template` accepts. Chronicle has no insights, so each template's panels are text
 * tiles describing what to chart, with the filters the reference template sets.
 */
const TEMPLATES: Record<string, { filters: Record<string, unknown>; tiles: TemplateTile[] }> = {
  DEFAULT_APP: {
    filters: { date_from: '-30d' },
    tiles: [
      text('## Daily active users (DAUs)\nUnique users with a `$pageview` per day, last 30 days.', 0, 0),
      text('## Weekly active users (WAUs)\nUnique users with a `$pageview` per week, last 90 days.', 6, 0),
      text('## Retention\nUsers who come back in the weeks after their first `$pageview`.', 0, 5),
      text('## Growth accounting\nNew, resurrecting, returning and dormant users per week.', 6, 5),
      text('## Referring domain (last 14 days)\nPage views broken down by `$referring_domain`.', 0, 10),
      text('## Pageview funnel, by browser\n`$pageview` → `$pageview` → `$pageview`, broken down by `$browser`.', 6, 10),
    ],
  },
  WEBSITE_TRAFFIC: {
    filters: { date_from: '-7d' },
    tiles: [
      text('## Website unique users (last 7 days)\nUnique users with a `$pageview` per day.', 0, 0),
      text('## Website page views (last 7 days)\nTotal `$pageview` events per day.', 6, 0),
      text('## Website sessions (last 7 days)\nUnique `$session_id` values per day.', 0, 5),
      text('## Top website pages (last 7 days)\nPage views broken down by `$pathname`.', 6, 5),
      text('## Top referrers (last 7 days)\nPage views broken down by `$referring_domain`.', 0, 10),
      text('## Website users by country (last 7 days)\nUnique users broken down by `$geoip_country_code`.', 6, 10),
    ],
  },
};

export const templateTileCount = (key: string) => TEMPLATES[key]?.tiles.length ?? 0;

/** The template's contribution to a new dashboard, its tiles under the given ids; null for an unknown key. */
export function builtInTemplate(key: string, tileIds: number[]): DashboardSource | null {
  const template = TEMPLATES[key];
  if (!template) return null;
  return { filters: structuredClone(template.filters), tiles: template.tiles.map((t, i) => ({ ...structuredClone(t), id: tileIds[i] })) };
}
