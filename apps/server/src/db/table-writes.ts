import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** The tables a statement writes, or 'unknown' when its text does not tell (raw SQL of another shape). */
export type WrittenTables = ReadonlySet<string> | 'unknown';

export type TableWriteListener = (tables: WrittenTables) => void;

/**
 * Tells listeners which tables each statement of this database writes, as the statement is sent
 * (before it runs, and before its transaction commits): every insert, update, delete and merge
 * built with Kysely, inside a transaction or not, and raw SQL that starts with one. A cache of rows
 * (modules/access/archive-cache.ts) drops what it holds of those tables, whatever module wrote
 * them. Statements of other processes (another server, the command line) and of the SQLite event
 * writer thread are not seen here: such a cache also needs the bus and a short lifetime.
 */
export class TableWrites implements KyselyPlugin {
  private readonly listeners = new Set<TableWriteListener>();

  on(listener: TableWriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.listeners.size > 0) {
      const tables = writtenTables(args.node);
      if (tables !== null) for (const listener of [...this.listeners]) listener(tables);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

type Node = OperationNode & Record<string, unknown>;

/** The name of a table node, or of the table under an alias; undefined for anything else. */
function tableName(node: unknown): string | undefined {
  const n = node as Node | undefined;
  if (!n) return undefined;
  if (n.kind === 'AliasNode') return tableName(n.node);
  if (n.kind !== 'TableNode') return undefined;
  const identifier = (n.table as { identifier?: { name?: string } } | undefined)?.identifier;
  return identifier?.name;
}

/** A raw statement's leading verb and table, e.g. `DELETE FROM "events"`; 'unknown' when it writes something else. */
const rawWrite =
  /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|replace\s+into|truncate(?:\s+table)?)\s+"?(\w+)"?/i;
const rawRead =
  /^\s*(?:select|pragma|explain|values|show|set|begin|commit|rollback|savepoint|release|listen|notify|analyze|vacuum)\b/i;
const rawWriteAnywhere = /\b(?:insert|update|delete|merge|replace|truncate)\b/i;

/**
 * The tables a statement writes: null for a statement that writes none (a select, schema
 * changes, a transaction's own statements).
 */
export function writtenTables(root: RootOperationNode): WrittenTables | null {
  const node = root as unknown as Node;
  const tables = new Set<string>();
  let unknown = false;
  const add = (target: unknown) => {
    const name = tableName(target);
    if (name) tables.add(name);
    else unknown = true;
  };
  const visit = (n: Node) => {
    switch (n.kind) {
      case 'InsertQueryNode':
      case 'MergeQueryNode':
        add(n.into);
        break;
      case 'UpdateQueryNode':
        add(n.table);
        break;
      case 'DeleteQueryNode':
        for (const from of ((n.from as Node | undefined)?.froms as unknown[] | undefined) ?? []) add(from);
        break;
      case 'RawNode': {
        const text = ((n.sqlFragments as readonly string[]) ?? []).join('?');
        const m = rawWrite.exec(text);
        if (m) tables.add(m[1]!.toLowerCase());
        // Any other statement naming a write (`with … delete …`, a leading comment): tables unknown.
        else if (!rawRead.test(text) && rawWriteAnywhere.test(text)) unknown = true;
        break;
      }
      default:
        break;
    }
    // A write inside a common table expression (`with x as (delete … returning …) select …`).
    const withNode = n.with as Node | undefined;
    for (const cte of (withNode?.expressions as Node[] | undefined) ?? []) {
      const expression = cte.expression as Node | undefined;
      if (expression) visit(expression);
    }
  };
  visit(node);
  if (unknown) return 'unknown';
  return tables.size > 0 ? tables : null;
}
