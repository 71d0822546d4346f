import { invalid } from '../errors';

export type ExportSchema = { fields: { expression: string; alias: string }[]; values: Record<string, never>; hogql_query: string };

const fail = (detail: string) => invalid(detail, 'hogql_query');

/** Splits on commas that are not inside parentheses or quotes. */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (const ch of list) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (quote || depth !== 0) throw fail('Failed to parse query');
  parts.push(current.trim());
  return parts;
}

/**
 * The export's query, checked as the reference checks it: one SELECT from `events`, no JOIN, no UNION. The
 * schema lists each selected expression with its alias (the expression itself when it has none).
 */
export function parseExportQuery(query: string): ExportSchema {
  const source = query.trim().replace(/;\s*$/, '');
  const flat = source.replace(/'(?:[^'\\]|\\.)*'/g, "''");
  if (/\bunion\b/i.test(flat)) throw fail('UNIONs are not supported');
  if (/\bjoin\b/i.test(flat)) throw fail('JOINs are not supported');
  const match = /^select\s+([\s\S]+?)\s+from\s+([\s\S]+)$/i.exec(source);
  if (!/^select\b/i.test(source) || !match) {
    if (/^select\b/i.test(source) && !/\bfrom\b/i.test(flat)) throw fail('Query must SELECT FROM events');
    throw fail('Failed to parse query');
  }
  const [, selectList, rest] = match;
  const from = /^([A-Za-z_][\w.]*|\()/.exec(rest.trim());
  if (!from || from[1] === '(') throw fail('Query must only SELECT FROM events');
  if (from[1].toLowerCase() !== 'events') throw fail('Query must SELECT FROM events');
  const afterTable = rest.trim().slice(from[1].length).trim();
  if (afterTable.startsWith(',')) throw fail('Query must only SELECT FROM events');
  const fields = splitTopLevel(selectList).map((item) => {
    if (!item) throw fail('Failed to parse query');
    const aliased = /^([\s\S]+?)\s+as\s+([A-Za-z_$][\w$]*|`[^`]+`|"[^"]+")$/i.exec(item);
    if (aliased) return { expression: aliased[1].trim(), alias: aliased[2].replace(/^[`"]|[`"]$/g, '') };
    return { expression: item, alias: item };
  });
  return { fields, values: {}, hogql_query: query };
}
