/**
 * How a node takes work the database hands out (webhook deliveries, the computer's decisions):
 * one claim at a time, started by a kick (a notification, a settled task, the poll). A kick
 * during a claim asks for one more claim after it, never a second one at once. The claim and
 * every task it starts are tracked, so idle() resolves once all of them have settled.
 */
export class ClaimLoop {
  private claiming: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly tasks = new Set<Promise<void>>();
  private halted = false;

  /** `claim` claims what is due and starts its tasks (track() each); it never rejects. */
  constructor(private readonly claim: () => Promise<void>) {}

  get stopped(): boolean {
    return this.halted;
  }

  /** Kicks every `ms` besides the other kicks (0: never). */
  poll(ms: number): void {
    if (this.timer || ms <= 0) return;
    this.timer = setInterval(() => this.kick(), ms);
    this.timer.unref();
  }

  kick(): void {
    if (this.halted) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    const claim = this.claim().finally(() => {
      this.claiming = null;
      if (this.again && !this.halted) {
        this.again = false;
        this.kick();
      }
    });
    this.claiming = claim;
    this.track(claim);
  }

  /** A task idle() waits for, forgotten once it settles. */
  track(task: Promise<void>): void {
    this.tasks.add(task);
    const forget = () => void this.tasks.delete(task);
    task.then(forget, forget);
  }

  /** Resolves once no claim or task is running. */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  /** No more claims (running ones finish: idle() waits for them). */
  stop(): void {
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
