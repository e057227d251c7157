/** Calendar periods in UTC, as the text keys the usage tables use. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}
