/**
 * A D1 binding whose reads wait for `before()` first: a network writer's write that runs while earlier writes'
 * batches are still on their way to D1 (objects/network/runner/combined-commits.ts) must read what they
 * wrote, not the rows as they were. Batches do not wait: a write's own statements are staged, and the
 * combined batch is run by the one that waits for nothing. Statements prepared here run in a batch of the
 * binding underneath (its proxies are unwrapped, as meteredD1 does).
 */
export function barrierD1(inner: D1Database, before: () => Promise<void>): D1Database {
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...args: unknown[]) => wrap(target.bind(...args));
        if (property === "all" || property === "run" || property === "raw" || property === "first") {
          return async (...args: unknown[]) => {
            await before();
            return (target[property] as (...a: unknown[]) => Promise<unknown>)(...args);
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
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql));
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => target.batch(statements.map((statement) => originals.get(statement) ?? statement));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
