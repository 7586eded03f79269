/** `items` in runs of at most `size`: D1 binds at most 100 parameters a statement, so long lists go in parts. */
export const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
