// CSV (RFC 4180) records from a stream of lines: quoted fields may hold commas, doubled quotes and line breaks.
// Each record comes with the line it starts on, so errors name the line a user sees in an editor.

export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

const MAX_RECORD_LINES = 50;

export async function* csvRecords(lines: AsyncIterable<string | null>): AsyncGenerator<CsvRecord> {
  let n = 0;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let start = 0;
  for await (const line of lines) {
    n++;
    if (line === null) {
      if (quoted) { quoted = false; fields = []; field = ''; }
      yield { line: n, error: 'Line too long' };
      continue;
    }
    if (!quoted) {
      if (!line.trim()) continue;
      start = n;
    } else {
      if (n - start >= MAX_RECORD_LINES) {
        // An unbalanced quote would otherwise swallow the rest of the file into one field.
        yield { line: start, error: 'Unterminated quoted field' };
        quoted = false; fields = []; field = ''; start = n;
      } else field += '\n';
    }
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"') {
          if (line[i + 1] === '"') { field += '"'; i++; } else quoted = false;
        } else field += ch;
      } else if (ch === '"' && field === '') quoted = true;
      else if (ch === ',') { fields.push(field); field = ''; }
      else field += ch;
    }
    if (quoted) continue;
    fields.push(field);
    yield { line: start, fields };
    fields = [];
    field = '';
  }
  if (quoted) yield { line: start, error: 'Unterminated quoted field' };
}
