// A test hook on the real code path: with TERN_TEST_PAUSE_AT=<step> the server logs "paused" and waits
// forever when it reaches that step, so a crash test can SIGKILL it exactly there; with <step>@<ms> it waits
// that long and goes on (a slow step, for timeouts). Unset, it costs a compare.
import { log } from '../log.ts';

let pauseAt: string | undefined;
let pauseMs = Infinity;

export function setPausePoint(spec: string | undefined) {
  const [step, ms] = (spec ?? '').split('@');
  pauseAt = step || undefined;
  pauseMs = ms ? Number(ms) : Infinity;
}

/** Never returns when `step` is the configured pause point (or returns after its delay). */
export async function pausePoint(step: string): Promise<void> {
  if (pauseAt !== step) return;
  log.warn('paused', { step, ms: pauseMs });
  await new Promise((resolve) => { if (pauseMs !== Infinity) setTimeout(resolve, pauseMs); });
}
