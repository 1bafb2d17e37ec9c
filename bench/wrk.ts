// wrk against the event endpoint: the request lines (generated events with their own User-Agent and client IP,
// read by ingest.lua) and one timed run, with the CPU the target process used per event and its main thread's share.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEvents } from './generate.ts';
import { cpuSeconds, machineJiffies, mainSchedNs } from './proc-stats.ts';

export type WrkResult = {
  rps: number; requests: number; p50: number; p99: number; errors: number; cpuUs: number; mainUs: number;
  /** Share of the run the main thread spent on a CPU, and runnable but waiting for one (other threads, wrk). */
  mainOnCpu: number; mainWaiting: number; machineBusy: number;
};

export type WrkOptions = { eventsFile: string; connections: number; threads: number };

export const hasWrk = () => Boolean(Bun.which('wrk'));

/** `count` varied events of the realistic generator for site `publicId`, as wrk request lines (UA, client IP, /event body) in `file`. */
export function writeWrkEvents(file: string, publicId: string, count = 50_000): number {
  const lines: string[] = [];
  for (const e of generateEvents({ events: count, site: publicId, seed: 7, days: 30 })) {
    const { timestamp: _t, ip, user_agent, ...body } = e;
    lines.push(`${user_agent}\t${ip}\t${JSON.stringify(body)}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return lines.length;
}

function ms(v: string, unit: string) {
  const x = Number(v);
  return unit === 'us' ? x / 1000 : unit === 's' ? x * 1000 : unit === 'm' ? x * 60_000 : x;
}

/** wrk POSTing the events of `o.eventsFile` to `url` for `seconds`; `pid` is the process whose CPU is charged. */
export async function wrk(url: string, seconds: number, pid: number, o: WrkOptions): Promise<WrkResult> {
  const cpu0 = cpuSeconds(pid);
  const [on0, wait0] = mainSchedNs(pid);
  const [busy0, all0] = machineJiffies();
  const t0 = performance.now();
  const p = Bun.spawn(['wrk', `-t${o.threads}`, `-c${o.connections}`, `-d${seconds}s`, '--latency', '-s', join(import.meta.dir, 'ingest.lua'), url], {
    env: { ...process.env, BENCH_EVENTS: o.eventsFile }, stdout: 'pipe', stderr: 'pipe',
  });
  const text = await new Response(p.stdout).text();
  await p.exited;
  const cpu = cpuSeconds(pid) - cpu0;
  const [on1, wait1] = mainSchedNs(pid);
  const [busy1, all1] = machineJiffies();
  const wallNs = (performance.now() - t0) * 1e6;
  const pct = (q: string) => { const m = text.match(new RegExp(`^\\s*${q}%\\s+([\\d.]+)(us|ms|s|m)`, 'm')); return m ? ms(m[1]!, m[2]!) : NaN; };
  const requests = Number(text.match(/(\d+) requests in/)?.[1] ?? 0);
  return {
    rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN),
    requests,
    cpuUs: (cpu * 1e6) / Math.max(requests, 1),
    mainUs: (on1 - on0) / 1000 / Math.max(requests, 1),
    mainOnCpu: (on1 - on0) / wallNs,
    mainWaiting: (wait1 - wait0) / wallNs,
    machineBusy: (busy1 - busy0) / Math.max(all1 - all0, 1),
    p50: pct('50'),
    p99: pct('99'),
    errors: Number(text.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0) + Number(text.match(/Socket errors:.*?(\d+)/)?.[1] ?? 0),
  };
}
