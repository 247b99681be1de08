/** A Web Storage stand-in over a Map, for tests of what the pages keep in localStorage; `items` is the Map. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}
