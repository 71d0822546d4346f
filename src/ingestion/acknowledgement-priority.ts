/**
 * Acknowledging new events comes before projecting old ones (they share one event loop). While capture is busy,
 * the async read models, all behind this one gate, get one batch (up to 1000 events) per `intervalMs` between
 * them, which bounds their share of the loop; when capture is idle they run freely and catch up. Under sustained
 * load they fall behind (memory stays flat: they read the log in bounded pages) and catch up once it eases.
 *
 * "Busy" is a request in flight or one started within `quietMs`: a request waiting in the socket is invisible
 * until the loop is free to parse it, so in-flight counting alone would let a projection batch go first.
 */
export class AcknowledgementPriority {
  private inFlight = 0;
  private lastStart = 0;
  private nextSlot = 0;

  constructor(
    private readonly intervalMs = 200,
    private readonly quietMs = 500,
  ) {}

  /** Wraps one capture request. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    this.lastStart = Date.now();
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
    }
  }

  private busy(now: number) {
    return this.inFlight > 0 || now - this.lastStart < this.quietMs;
  }

  readonly gate = async (): Promise<void> => {
    // The stores are synchronous, so a catching-up read model chains batch after batch in microtasks and would
    // never let the loop poll its sockets: every batch first yields one macrotask turn to pending I/O.
    await new Promise((r) => setImmediate(r));
    for (;;) {
      const now = Date.now();
      if (!this.busy(now)) return;
      if (now >= this.nextSlot) {
        this.nextSlot = now + this.intervalMs;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.min(this.nextSlot - now, 20)));
    }
  };
}
