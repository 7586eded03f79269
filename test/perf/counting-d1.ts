/** Wraps a D1 binding and counts round trips (each statement run, and each batch as one) and rows written. */
export function countingD1(inner: D1Database) {
  /**
   * maxBindings: production D1 refuses a statement binding more than 100 parameters (local SQLite does not).
   * rowsWritten: D1's own `meta.rows_written`, from each result that carries one (`first` does not).
   */
  const counter = { roundTrips: 0, statements: 0, maxBindings: 0, rowsWritten: 0 };
  const countWrites = (results: unknown) => {
    for (const result of Array.isArray(results) ? results : [results]) {
      counter.rowsWritten += (result as { meta?: { rows_written?: number } } | null)?.meta?.rows_written ?? 0;
    }
    return results;
  };
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property === "bind") {
          return (...args: unknown[]) => {
            counter.maxBindings = Math.max(counter.maxBindings, args.length);
            return wrap(target.bind(...args));
          };
        }
        if (property === "all" || property === "raw" || property === "first" || property === "run") {
          return (...args: unknown[]) => {
            counter.roundTrips++;
            counter.statements++;
            return Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args)).then(countWrites);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };
  const db = new Proxy(inner, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql));
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          counter.roundTrips++;
          counter.statements += statements.length;
          return target.batch(statements.map((s) => originals.get(s) ?? s)).then(countWrites);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, counter };
}
