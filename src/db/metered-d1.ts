/** What D1 reported for the statements run through a metered binding: the figures D1 bills by. */
export interface D1Meter {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
}

export const newMeter = (): D1Meter => ({ statements: 0, rowsRead: 0, rowsWritten: 0 });

type Meta = { meta?: { rows_read?: number; rows_written?: number } };

function count(meter: D1Meter, result: Meta) {
  meter.statements++;
  meter.rowsRead += result.meta?.rows_read ?? 0;
  meter.rowsWritten += result.meta?.rows_written ?? 0;
}

/**
 * A D1 binding that adds up `meta.rows_read` / `meta.rows_written` of everything run through it. The
 * network's writer runs on one, so "rows read per write" is a figure it can report rather than a guess.
 * `raw()` carries no meta, so it is answered from `all()`, mapped to value arrays the way drizzle maps
 * batch results (drizzle-orm/d1 d1ToRawMapping): the same rows, the same column order. That mapping is
 * only sound when no two result columns share a name, which a join breaks (`id` of both tables): a
 * statement with a join runs `raw()` itself and is counted without its rows.
 */
export function meteredD1(inner: D1Database, meter: D1Meter): D1Database {
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, joins: boolean): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...args: unknown[]) => wrap(target.bind(...args), joins);
        if (property === "all" || property === "run") {
          return async () => {
            const result = await target[property]();
            count(meter, result);
            return result;
          };
        }
        if (property === "raw") {
          return async (options?: { columnNames?: boolean }) => {
            if (options?.columnNames) return target.raw({ columnNames: true });
            if (joins) {
              meter.statements++;
              return target.raw();
            }
            const result = await target.all<Record<string, unknown>>();
            count(meter, result);
            return result.results.map((row) => Object.values(row));
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };
  return new Proxy(inner, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), /\bjoin\b/i.test(sql));
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements.map((statement) => originals.get(statement) ?? statement));
          for (const result of results) count(meter, result);
          return results;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
