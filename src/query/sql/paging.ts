// Page/limit of a paginated report (page from 1) and the one place that turns it into rows to skip.
import { sql, type Fragment } from '../../storage/sql.ts';

export type Paging = { page: number; limit: number };

export const offsetOf = (p: Paging) => (p.page - 1) * p.limit;

/** `LIMIT ? OFFSET ?` for the page, both bound. */
export const limitOffset = (p: Paging): Fragment => sql`LIMIT ${p.limit} OFFSET ${offsetOf(p)}`;
