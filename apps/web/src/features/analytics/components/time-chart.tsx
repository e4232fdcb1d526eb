import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayLabel, xRange } from '../model/axis';
import type { ChartData } from '../model/series';

// A time chart drawn with uPlot (docs/HISTORY.md): a canvas, so hundreds of points cost
// nothing, sized to its container by a ResizeObserver so it reads on a phone. Its numbers are in the
// table beside it; the canvas is one image with a summary for assistive technology.

/** Series colours: distinct, each at least 3:1 against white (WCAG 1.4.11). */
export const CHART_COLOURS = [
  '#4f46e5',
  '#059669',
  '#d97706',
  '#dc2626',
  '#0284c7',
  '#c026d3',
  '#475569',
  '#65a30d',
];

const BAR_STROKE = '#818cf8';
const BAR_FILL = 'rgba(165, 180, 252, 0.45)';

export interface TimeChartProps {
  data: ChartData;
  /** Read by assistive technology in place of the canvas. */
  summary: string;
  /** Left axis' unit label. */
  leftLabel: string;
  rightLabel?: string;
  /** Days (default) or instants on the x axis. */
  instants?: boolean;
  /** Left axis fixed from 0 to this (a rate: 100). */
  leftMax?: number;
  height?: number;
}

/** Whether a value stands between gaps (or at an edge beside one): a line cannot draw it, a dot does. */
function hasLonePoint(values: readonly (number | null)[]): boolean {
  return values.some(
    (v, i) => v !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null,
  );
}

function options(props: TimeChartProps, width: number): uPlot.Options {
  const { data, leftLabel, rightLabel, instants, leftMax, height = 240 } = props;
  const few = data.x.length <= 2;
  const axisStroke = '#475569';
  const grid = { stroke: '#e2e8f0', width: 1 };
  const bars = uPlot.paths.bars?.({ size: [0.6, 40] });
  return {
    width,
    height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    // Days are drawn in UTC, as the server counted them in the chosen zone and named them by date.
    tzDate: instants ? undefined : (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {
      x: {
        time: true,
        auto: false,
        range: xRange(data.x, instants === true),
      },
      y: {
        range: (_u, _min, max) =>
          leftMax !== undefined ? [0, leftMax] : [0, max === null || max <= 0 ? 1 : max * 1.1],
      },
      ...(rightLabel
        ? {
            r: {
              range: (_u: uPlot, _min: number, max: number) =>
                [0, max === null || max <= 0 ? 1 : max * 1.15] as uPlot.Range.MinMax,
            },
          }
        : {}),
    },
    axes: [
      {
        stroke: axisStroke,
        grid,
        ticks: grid,
        // Days are labelled by date only: ticks between midnights (a short range) go unlabelled.
        ...(instants ? {} : { values: (_u: uPlot, splits: number[]) => splits.map(dayLabel) }),
      },
      { stroke: axisStroke, grid, ticks: grid, label: leftLabel, labelSize: 20, size: 50 },
      ...(rightLabel
        ? [
            {
              scale: 'r',
              side: 1 as const,
              stroke: axisStroke,
              grid: { show: false },
              label: rightLabel,
              labelSize: 20,
              size: 44,
            },
          ]
        : []),
    ],
    series: [
      {},
      ...data.series.map((s, i): uPlot.Series => {
        const colour = CHART_COLOURS[i % CHART_COLOURS.length];
        if (s.bars) {
          return {
            label: s.label,
            scale: s.right ? 'r' : 'y',
            stroke: BAR_STROKE,
            fill: BAR_FILL,
            paths: bars,
            points: { show: false },
          };
        }
        return {
          label: s.label,
          scale: s.right ? 'r' : 'y',
          stroke: colour,
          width: 2,
          dash: s.dashed ? [6, 4] : undefined,
          spanGaps: true,
          // Few points, or a series of separate measurements, are drawn as dots too (a lone point shows).
          points: { show: few || s.points || hasLonePoint(s.values) || undefined, size: 6, fill: colour },
        };
      }),
    ],
  };
}

/** The legend's mark of a series: a block for bars, a solid or dashed line otherwise. */
function swatch(s: ChartData['series'][number], i: number) {
  const colour = CHART_COLOURS[i % CHART_COLOURS.length];
  if (s.bars) return { height: 8, backgroundColor: BAR_FILL, border: `1px solid ${BAR_STROKE}` };
  return { height: 0, borderTop: `2px ${s.dashed ? 'dashed' : 'solid'} ${colour}` };
}

export function TimeChart(props: TimeChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const propsRef = useRef(props);
  propsRef.current = props;
  const { data } = props;

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const current = propsRef.current;
    const aligned: uPlot.AlignedData = [data.x, ...data.series.map((s) => s.values)];
    const chart = new uPlot(options(current, Math.max(200, box.clientWidth)), aligned, box);
    let width = box.clientWidth;
    const observer = new ResizeObserver(() => {
      if (box.clientWidth === width || box.clientWidth === 0) return;
      width = box.clientWidth;
      chart.setSize({ width: Math.max(200, width), height: current.height ?? 240 });
    });
    observer.observe(box);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [data]);

  return (
    <figure className="m-0 min-w-0">
      <div ref={boxRef} role="img" aria-label={props.summary} className="w-full min-w-0 overflow-hidden" />
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {data.series.map((s, i) => (
          <span key={s.label} className="inline-flex items-center gap-1.5">
            <span aria-hidden className="inline-block w-4" style={swatch(s, i)} />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
