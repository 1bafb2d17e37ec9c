// Tern's own import format (contract §6): one JSON event per line, the /event fields plus timestamp, ip, user_agent.
import { ApiError } from '../../http/errors.ts';
import { parseImportLine } from '../validate.ts';
import { lines, MAX_LINE_CHARS } from './body-lines.ts';
import type { ImportFormat } from './item.ts';

const fail = (status: number, msg: string) => new ApiError(status, msg);

export const ndjson: ImportFormat = async function* (bytes) {
  let n = 0;
  for await (const line of lines(bytes)) {
    n++;
    if (line === null) { yield { line: n, error: `Line too long: at most ${MAX_LINE_CHARS / 1024} KiB` }; continue; }
    if (!line.trim()) continue;
    try {
      yield { line: n, event: parseImportLine(line, fail) };
    } catch (e) {
      yield { line: n, error: e instanceof ApiError ? e.message : 'Could not read this line' };
    }
  }
};
