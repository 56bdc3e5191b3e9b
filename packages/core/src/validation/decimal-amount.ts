/**
 * A decimal amount kept as text so that no amount is rounded (a NAS's `price`, `12.50`): up to
 * 15 digits, then optionally a point and up to 4 more. The one rule the write schema and a list
 * filter on the amount check.
 */
export const decimalAmountPattern = /^\d{1,15}(\.\d{1,4})?$/;

/** An amount as messages and the API description show one. */
export const decimalAmountExample = '12.50';
