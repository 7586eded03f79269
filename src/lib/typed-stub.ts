/**
 * The one cast from an untyped binding to a typed writer: lib/env.ts declares the Durable Object
 * namespaces untyped (lib sits below the network domain and may not name its classes), so each writer
 * class's stub getter passes its own type here. Callers then see every RPC method with its own types.
 */
export function typedStub<T extends Rpc.DurableObjectBranded>(namespace: DurableObjectNamespace, name: string): DurableObjectStub<T> {
  const typed = namespace as unknown as DurableObjectNamespace<T>;
  return typed.get(typed.idFromName(name));
}
