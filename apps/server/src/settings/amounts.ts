/** The first instant of `now`'s month, UTC: the monthly budget counts from there. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** The first instant of the month after `now`'s, UTC: when calls refused for the budget resume. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** A day as the budget messages name it ('1 March 2026'), in UTC as the budget month is. */
export const day = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** US dollars as people read them: two decimals, four for amounts under a cent, '< $0.0001' below that. */
export function formatUsd(amount: number): string {
  if (amount > 0 && amount < 0.0001) return '< $0.0001';
  return `$${amount > 0 && amount < 0.01 ? amount.toFixed(4) : amount.toFixed(2)}`;
}
