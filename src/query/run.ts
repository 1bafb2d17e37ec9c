// Runs composed fragments against the database.
import type { Database, Row } from '../storage/database.ts';
import type { Fragment } from './sql.ts';

export const rows = <T extends Row = Row>(db: Database, f: Fragment) => db.query<T>(f.sql, f.params);
export const one = async <T extends Row = Row>(db: Database, f: Fragment) => (await db.query<T>(f.sql, f.params))[0];
