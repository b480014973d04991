/** Returns a wrapper that lets at most `count` calls run at once (the docs run on two cores). */
export function limit(count: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= count) await new Promise<void>((wake) => waiting.push(wake));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
