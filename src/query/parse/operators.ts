// The filter operators (contract §7), one list for the `filters` parameter, the query API's filter trees and its schema.
export const OPERATORS = ['is', 'is_not', 'contains', 'not_contains', 'matches', 'not_matches'] as const;
export type Operator = (typeof OPERATORS)[number];
