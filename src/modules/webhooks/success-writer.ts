import type { AttemptRecord } from './deliveries.repository.js';

// Successful attempts are written in groups: while one group's statement runs, the attempts that
// end meanwhile wait for the next, so a busy dispatcher writes one statement for many deliveries and
// an idle one writes each success at once (a group of one). A failed statement fails its group's
// attempts only; each is then sent again after its lease, like any attempt whose outcome was lost.

/** Attempts in one statement at most (each carries its request and up to 4 KiB of response). */
export const MAX_GROUP = 100;

interface Waiting {
  attempt: AttemptRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class SuccessWriter {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;

  /** `record` writes one group in one statement (deliveries.recordSuccesses). */
  constructor(private readonly record: (attempts: AttemptRecord[]) => Promise<unknown>) {}

  /** Resolves once the attempt is recorded (or its delivery was found deleted). */
  write(attempt: AttemptRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ attempt, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, MAX_GROUP);
      try {
        await this.record(group.map((w) => w.attempt));
        for (const w of group) w.resolve();
      } catch (error) {
        for (const w of group) w.reject(error);
      }
    }
    this.writing = undefined;
  }
}
