// New people per day as a bar chart, drawn here as SVG: no chart library and no script in the page.
// The chart is one image with a label; the figures it draws are in a table beside it.
import type { CountedLabel } from '../db/signups-repository.js';

const WIDTH = 720;
const HEIGHT = 240;
const MARGIN = { top: 16, right: 8, bottom: 40, left: 64 };

/** A round top for the scale: 1, 2, 5, 10, 20, 50… at or above the busiest day. */
export function scaleTop(max: number): number {
  if (max <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((top) => top >= max) ?? 10 * magnitude;
}

export function SignupsChart({ days, label }: { days: CountedLabel[]; label: string }) {
  const top = scaleTop(Math.max(0, ...days.map((day) => day.count)));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(1, slot * 0.7);
  const y = (count: number) => MARGIN.top + plotHeight - (count / top) * plotHeight;
  const first = days[0]?.label ?? '';
  const last = days.at(-1)?.label ?? '';
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <line className="chart__axis" x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(0)} y2={y(0)} />
      <line className="chart__axis" x1={MARGIN.left} x2={MARGIN.left} y1={MARGIN.top} y2={y(0)} />
      <text className="chart__label" x={MARGIN.left - 6} y={y(top) + 8} textAnchor="end">
        {top.toLocaleString('en-US')}
      </text>
      <text className="chart__label" x={MARGIN.left - 6} y={y(0)} textAnchor="end">
        0
      </text>
      {days.map((day, index) =>
        day.count === 0 ? null : (
          <rect
            key={day.label}
            className="chart__bar"
            data-day={day.label}
            data-count={day.count}
            x={MARGIN.left + index * slot + (slot - barWidth) / 2}
            y={y(day.count)}
            width={barWidth}
            height={y(0) - y(day.count)}
          />
        ),
      )}
      <text className="chart__label" x={MARGIN.left} y={HEIGHT - 10}>
        {first}
      </text>
      <text className="chart__label" x={WIDTH - MARGIN.right} y={HEIGHT - 10} textAnchor="end">
        {last}
      </text>
    </svg>
  );
}
