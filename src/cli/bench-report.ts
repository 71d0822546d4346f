/**
 * How every benchmark ends (../shared/spec/bench.md): a readable table, then as its very last line one JSON object
 * with the figure, the same-run baseline and their ratio (higher is better).
 */
export function printBenchReport(
  title: string,
  rows: [label: string, value: string][],
  summary: { bench: string; value: number; unit: string; baseline: number; ratio?: number } & Record<string, number | string>,
) {
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`${title}\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`);
  const { bench, value, unit, baseline, ratio = value / baseline, ...extra } = summary;
  const line = { bench, value: Math.round(value), unit, baseline: Math.round(baseline), ratio: Number(ratio.toFixed(2)), ...extra };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
