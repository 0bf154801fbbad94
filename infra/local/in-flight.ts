/**
 * Work local mode started and has not seen end: a stop waits for it
 * (bounded), so no handler still running writes to a table that is closing.
 */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();

  /** Keeps `work` until it settles; answers it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work)).catch(() => undefined);
    return work;
  }

  /** Resolves once everything tracked has settled, or after `limitMs`. */
  async settle(limitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
    });
    await Promise.race([Promise.allSettled([...this.pending]), deadline]);
    clearTimeout(timer);
  }
}
