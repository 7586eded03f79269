/** Wraps a D1 binding and counts round trips: each statement run, and each batch as one. */
export function countingD1(inner: D1Database) {
  /** maxBindings: production D1 refuses a statement binding more than 100 parameters (local SQLite does not). */
  const counter = { roundTrips: 0, statements: 0, maxBindings: 0 };
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
            return (value as (...a: unknown[]) => unknown).apply(target, args);
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
          return target.batch(statements.map((s) => originals.get(s) ?? s));
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, counter };
}
