/**
 * A stand-in for an SDK client with some of its methods replaced (the fence's and the routers'
 * clients): every other member is the client's own, bound to it, so the SDK's code runs unchanged.
 */
export function withOverrides<T extends object>(target: T, overrides: object): T {
  return new Proxy(target, {
    get(client, property, receiver) {
      if (Object.prototype.hasOwnProperty.call(overrides, property)) {
        return (overrides as Record<PropertyKey, unknown>)[property];
      }
      const value: unknown = Reflect.get(client, property, receiver);
      return typeof value === 'function' ? value.bind(client) : value;
    },
  });
}
