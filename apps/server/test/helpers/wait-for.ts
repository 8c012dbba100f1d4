/**
 * Polls a condition until it holds (tests wait on conditions, never on sleeps). The default bound is
 * generous: a condition that holds returns at once, and the suite also runs while other work keeps
 * both cores busy, where media processing alone can take many seconds.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
      last = undefined; // the message names an error only when the latest attempt threw it
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
  throw new Error(
    `Timed out waiting for ${options.what ?? 'a condition'}${last instanceof Error ? `: ${last.message}` : ''}`,
  );
}
