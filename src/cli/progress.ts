/** A one-line progress bar for long replays, redrawn in place with \r. */
export function progressBar(label: string, position: bigint, head: bigint, events: number, elapsedMs: number, width = 30) {
  const fraction = head > 0n ? Math.min(1, Number(position) / Number(head)) : 1;
  const filled = Math.round(fraction * width);
  const rate = Math.round(events / Math.max(elapsedMs / 1000, 0.001));
  return `\r${label.padEnd(24)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${events} events  ${rate} events/s`;
}
