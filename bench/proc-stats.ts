// Linux /proc readings the benches print beside their latencies: a process's CPU time, its main thread's
// time on and waiting for a CPU, the whole machine's busy share, RSS.
import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process has used: per event, a figure that other load on the machine does not skew. */
export const cpuSeconds = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

/** The main thread's (the JS event loop's; DuckDB and I/O work on other threads) nanoseconds on a CPU and waiting in the run queue (Linux schedstat). */
export const mainSchedNs = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').slice(0, 2).map(Number) as [number, number];

/** Busy and total jiffies of the whole machine (/proc/stat): what the load generators, the server and everything else used. */
export const machineJiffies = () => {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return [total - f[3]! - (f[4] ?? 0), total] as const;
};

export const rssMb = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;

/** Shares of the wall time since `start()` (in [0, 1]): the main thread on a CPU, waiting for one; the machine busy. */
export function schedWindow(pid: number) {
  const [on0, wait0] = mainSchedNs(pid);
  const [busy0, all0] = machineJiffies();
  const t0 = performance.now();
  return () => {
    const [on1, wait1] = mainSchedNs(pid);
    const [busy1, all1] = machineJiffies();
    const wallNs = (performance.now() - t0) * 1e6;
    return { mainOnCpu: (on1 - on0) / wallNs, mainWaiting: (wait1 - wait0) / wallNs, machineBusy: (busy1 - busy0) / Math.max(all1 - all0, 1) };
  };
}

/** Samples a process's RSS four times a second (short spikes of a load or a merge count); `stop()` gives the peak in MB. */
export function rssPeak(pid: number) {
  let peak = rssMb(pid);
  const timer = setInterval(() => { try { peak = Math.max(peak, rssMb(pid)); } catch { /* the process ended */ } }, 250);
  return { stop: () => { clearInterval(timer); return peak; }, peek: () => peak };
}
