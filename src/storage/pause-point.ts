// A test hook on the real code path: with TERN_TEST_PAUSE_AT=<step> the server logs "paused" and waits
// forever when it reaches that step, so a crash test can SIGKILL it exactly there. Unset, it costs a compare.
import { log } from '../log.ts';

let pauseAt: string | undefined;

export function setPausePoint(step: string | undefined) {
  pauseAt = step || undefined;
}

/** Never returns when `step` is the configured pause point. */
export async function pausePoint(step: string): Promise<void> {
  if (pauseAt !== step) return;
  log.warn('paused', { step });
  await new Promise(() => {});
}
