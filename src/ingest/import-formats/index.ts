// The import formats by name (`?format=` of the import route); ndjson is Tern's own and the default.
import type { ImportFormat } from './item.ts';
import { ndjson } from './ndjson.ts';
import { ga4 } from './ga4.ts';
import { umami } from './umami.ts';
import { accessLog } from './access-log.ts';

export const IMPORT_FORMATS = { ndjson, ga4, umami, 'access-log': accessLog } satisfies Record<string, ImportFormat>;
export type ImportFormatName = keyof typeof IMPORT_FORMATS;
export const IMPORT_FORMAT_NAMES = Object.keys(IMPORT_FORMATS) as ImportFormatName[];
