/**
 * What the scheduler reports about finished work: which job, when it was
 * due, when its effect was done. The benchmark reads scheduling delay from
 * it; nothing in the request path depends on it.
 */
export interface WorkDone {
  job: string;
  key: string;
  dueAt: number;
  doneAt: number;
  /** The SQS delivery that did it (1 for the first). */
  receiveCount: number;
}

type Listener = (done: WorkDone) => void;
const listeners = new Set<Listener>();

/** Calls `listener` after every handled item; answers a function that stops it. */
export function onWorkDone(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportWorkDone(done: WorkDone): void {
  for (const listener of listeners) {
    try {
      listener(done);
    } catch {
      // An observer never breaks the work it observes.
    }
  }
}
