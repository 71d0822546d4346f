import { invalid } from '../errors';

export type ExportSchema = { fields: { expression: string; alias: string }[]; values: Record<string, never>; hogql_query: string };

/** The event columns a batch-export query may read; `created_at` and `inserted_at` are when the server received it. */
export const EVENT_COLUMNS = ['uuid', 'event', 'distinct_id', 'timestamp', 'properties', 'team_id', 'created_at', 'inserted_at', '_inserted_at'] as const;
export type EventColumn = (typeof EVENT_COLUMNS)[number];

export type Literal = string | number | boolean | null;
export type Expr =
  | { kind: 'literal'; value: Literal }
  | { kind: 'column'; column: EventColumn }
  | { kind: 'property'; path: string[] }
  | { kind: 'call'; fn: 'toString' | 'toJSONString'; arg: Expr };
export type Comparison = { left: Expr; op: '=' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in'; values: Literal[] };

/** What a query makes of each event: the fields it delivers, in order, and the conditions (all must hold). */
export type ExportQuery = { fields: { alias: string; expr: Expr }[]; where: Comparison[] };

const fail = (detail: string) => invalid(detail, 'hogql_query');
const unsupported = (construct: string) => fail(`Batch export queries do not support ${construct}.`);

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

type Token = { t: 'ident' | 'quoted' | 'string' | 'number' | 'op'; v: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s+|([A-Za-z_$][\w$]*)|`((?:[^`\\]|\\.)*)`|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)|(!=|<>|<=|>=|==|[=<>(),.[\]*])/iy;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw fail('Failed to parse query');
    at = re.lastIndex;
    const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
    if (m[1] !== undefined) tokens.push({ t: 'ident', v: m[1] });
    else if (m[2] !== undefined) tokens.push({ t: 'quoted', v: unescape(m[2]) });
    else if (m[3] !== undefined) tokens.push({ t: 'quoted', v: unescape(m[3]) });
    else if (m[4] !== undefined) tokens.push({ t: 'string', v: unescape(m[4]) });
    else if (m[5] !== undefined) tokens.push({ t: 'number', v: m[5] });
    else if (m[6] !== undefined) tokens.push({ t: 'op', v: m[6] });
  }
  return tokens;
}

const FUNCTIONS = { tostring: 'toString', tojsonstring: 'toJSONString' } as const;

/** A recursive-descent reader over the tokens of one select item or of the WHERE clause. */
class Reader {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  done() {
    return this.i >= this.tokens.length;
  }
  next(): Token {
    const token = this.tokens[this.i++];
    if (!token) throw fail('Failed to parse query');
    return token;
  }
  isOp(v: string) {
    return this.peek()?.t === 'op' && this.peek()!.v === v;
  }
  isWord(v: string, offset = 0) {
    const token = this.peek(offset);
    return token?.t === 'ident' && token.v.toLowerCase() === v;
  }
  expectOp(v: string) {
    if (!this.isOp(v)) throw fail('Failed to parse query');
    this.i++;
  }

  literal(): Literal | undefined {
    const token = this.peek();
    if (!token) return undefined;
    if (token.t === 'string') return this.next().v;
    if (token.t === 'number') return Number(this.next().v);
    if (token.t === 'ident' && ['true', 'false', 'null'].includes(token.v.toLowerCase())) {
      const word = this.next().v.toLowerCase();
      return word === 'null' ? null : word === 'true';
    }
    return undefined;
  }

  expr(): Expr {
    const literal = this.literal();
    if (literal !== undefined) return { kind: 'literal', value: literal };
    const token = this.next();
    if (token.t === 'op' && token.v === '*') throw unsupported('SELECT *: list the fields to export');
    if (token.t !== 'ident' && token.t !== 'quoted') throw fail('Failed to parse query');
    if (token.t === 'ident' && this.isOp('(')) {
      this.next();
      const fn = FUNCTIONS[token.v.toLowerCase() as keyof typeof FUNCTIONS];
      if (!fn) throw unsupported(`the function ${token.v}()`);
      const arg = this.expr();
      if (this.isOp(',')) throw unsupported(`more than one argument to ${fn}()`);
      this.expectOp(')');
      return { kind: 'call', fn, arg };
    }
    const path = [token.v];
    for (;;) {
      if (this.isOp('.')) {
        this.next();
        const part = this.next();
        if (part.t !== 'ident' && part.t !== 'quoted' && part.t !== 'number') throw fail('Failed to parse query');
        path.push(part.v);
      } else if (this.isOp('[')) {
        this.next();
        const key = this.next();
        if (key.t !== 'string' && key.t !== 'number') throw fail('Failed to parse query');
        this.expectOp(']');
        path.push(key.v);
      } else break;
    }
    if (path[0] === 'events' && path.length > 1) path.shift();
    const [column, ...rest] = path;
    if (column === 'properties' && rest.length > 0) return { kind: 'property', path: rest };
    if (!(EVENT_COLUMNS as readonly string[]).includes(column)) throw unsupported(`the field ${path.join('.')}`);
    if (rest.length > 0) throw unsupported(`the field ${path.join('.')}`);
    return { kind: 'column', column: column as EventColumn };
  }

  comparison(): Comparison {
    if (this.isOp('(')) throw unsupported('parentheses in WHERE');
    if (this.isWord('not')) throw unsupported('NOT in WHERE');
    const left = this.expr();
    if (left.kind === 'literal') throw unsupported('a literal on the left of a comparison');
    const negated = this.isWord('not') && this.isWord('in', 1);
    if (negated) this.next();
    if (this.isWord('in')) {
      this.next();
      this.expectOp('(');
      const values: Literal[] = [];
      do {
        const value = this.literal();
        if (value === undefined) throw unsupported('IN with anything but a list of literals');
        values.push(value);
      } while (this.isOp(',') && this.next());
      this.expectOp(')');
      return { left, op: negated ? 'not in' : 'in', values };
    }
    const token = this.peek();
    const ops: Record<string, Comparison['op']> = { '=': '=', '==': '=', '!=': '!=', '<>': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
    if (token?.t !== 'op' || !ops[token.v]) {
      if (token?.t === 'ident') throw unsupported(`${token.v.toUpperCase()} in WHERE`);
      throw fail('Failed to parse query');
    }
    this.next();
    const value = this.literal();
    if (value === undefined) throw unsupported('comparing a field with anything but a literal');
    return { left, op: ops[token.v], values: [value] };
  }
}

function parseSelectItem(item: string): Expr {
  const reader = new Reader(tokenize(item));
  if (reader.isWord('distinct')) throw unsupported('SELECT DISTINCT');
  const expr = reader.expr();
  if (!reader.done()) {
    const token = reader.peek()!;
    if (token.t === 'op' && '=<>!'.includes(token.v[0])) throw unsupported('comparisons in the SELECT list');
    throw fail('Failed to parse query');
  }
  return expr;
}

const CLAUSES = ['prewhere', 'group by', 'order by', 'limit', 'having', 'settings', 'sample', 'final', 'array join', 'window', 'offset'];

/** The part after `FROM events`: nothing, or a WHERE made of comparisons joined by AND. */
function parseTail(tail: string): Comparison[] {
  if (tail === '') return [];
  const reader = new Reader(tokenize(tail));
  if (!reader.isWord('where')) {
    const words = tail.toLowerCase().replace(/\s+/g, ' ');
    const clause = CLAUSES.find((c) => words.startsWith(c));
    if (clause) throw unsupported(clause.toUpperCase());
    if (reader.isWord('as') || reader.peek()?.t === 'ident') throw unsupported('table aliases');
    throw fail('Failed to parse query');
  }
  reader.next();
  const where: Comparison[] = [reader.comparison()];
  while (!reader.done()) {
    if (reader.isWord('and')) {
      reader.next();
      where.push(reader.comparison());
      continue;
    }
    if (reader.isWord('or')) throw unsupported('OR in WHERE');
    const rest = tail.slice(tail.toLowerCase().search(/\b(group|order|limit|having|settings|window|offset)\b/)).toLowerCase().replace(/\s+/g, ' ');
    const clause = CLAUSES.find((c) => rest.startsWith(c));
    if (clause) throw unsupported(clause.toUpperCase());
    throw fail('Failed to parse query');
  }
  return where;
}

function splitQuery(query: string) {
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
  const tail = rest.trim().slice(from[1].length).trim();
  if (tail.startsWith(',')) throw fail('Query must only SELECT FROM events');
  const items = splitTopLevel(selectList).map((item) => {
    if (!item) throw fail('Failed to parse query');
    const aliased = /^([\s\S]+?)\s+as\s+([A-Za-z_$][\w$]*|`[^`]+`|"[^"]+")$/i.exec(item);
    if (aliased) return { expression: aliased[1].trim(), alias: aliased[2].replace(/^[`"]|[`"]$/g, '') };
    return { expression: item, alias: item };
  });
  return { items, tail };
}

/**
 * The export's query, checked as the reference checks it (one SELECT from `events`, no JOIN, no UNION), then
 * compiled into what the worker evaluates. Whatever the worker cannot evaluate is refused here, naming the
 * construct, so a stored query always means exactly what it says.
 */
export function compileExportQuery(query: string): ExportQuery {
  const { items, tail } = splitQuery(query);
  const fields = items.map((item) => ({ alias: item.alias, expr: parseSelectItem(item.expression) }));
  const seen = new Set<string>();
  for (const { alias } of fields) {
    if (seen.has(alias)) throw fail(`Batch export queries cannot select two fields under one name: ${alias}.`);
    seen.add(alias);
  }
  return { fields, where: parseTail(tail) };
}

/** The schema lists each selected expression with its alias (the expression itself when it has none). */
export function parseExportQuery(query: string): ExportSchema {
  compileExportQuery(query);
  return { fields: splitQuery(query).items, values: {}, hogql_query: query };
}
