/**
 * Named places where a test may make the process die on purpose, to prove that what was committed
 * before survives a crash (e.g. a version's job recorded in the outbox but not yet dispatched).
 * Off unless MIXROOM_FAULT_INJECTION names the point; never set it in production.
 */
export class FaultPoints {
  constructor(private readonly active: string | null) {}

  /** Exits the process at once, as a kill -9 would, when this point is the active one. */
  crashIf(point: string): void {
    if (this.active !== point) return;
    process.stderr.write(`fault injection: exiting at ${point}\n`);
    process.exit(70);
  }
}

export const NO_FAULTS = new FaultPoints(null);
