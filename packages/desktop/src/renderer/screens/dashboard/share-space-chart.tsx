import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Chart as ChartJS, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartData, type ChartOptions } from 'chart.js';
import { Line } from 'react-chartjs-2';
import { humanBytes, shortTime } from '../../ui/format.js';
import { useThemeChanges } from './use-theme-changes.js';
import { themedLegendAndTooltip } from './chart-theme.js';
import { forecastLine, type SpaceForecast, type SpaceReading } from './space-points.js';
import { timeTick } from './scan-points.js';

// Time runs on a linear axis of milliseconds: the forecast reaches a date no reading has.
ChartJS.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

interface SpaceColors {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  used: string;
  capacity: string;
  forecast: string;
}
const swatchNames = ['text', 'muted', 'grid', 'surface', 'used', 'capacity', 'forecast'] as const satisfies ReadonlyArray<keyof SpaceColors>;

function readColors(swatches: HTMLElement): SpaceColors {
  const colorOf = (name: string) => getComputedStyle(swatches.querySelector(`[data-swatch="${name}"]`)!).color;
  return Object.fromEntries(swatchNames.map((name) => [name, colorOf(name)])) as unknown as SpaceColors;
}

function chartOptions(colors: SpaceColors): ChartOptions<'line'> {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    parsing: false,
    interaction: { mode: 'nearest', intersect: false },
    plugins: themedLegendAndTooltip(colors, {
      title: (items) => shortTime(new Date(items[0]?.parsed.x ?? 0).toISOString()),
      label: (item) => `${item.dataset.label ?? ''}: ${humanBytes(item.parsed.y ?? 0)}`,
    }),
    scales: {
      x: {
        type: 'linear',
        ticks: {
          color: colors.muted,
          maxRotation: 0,
          autoSkipPadding: 24,
          // The growth chart's format, chosen by the span shown: one format per axis.
          callback(value) {
            return timeTick(Number(value), this.max - this.min);
          },
        },
        grid: { color: colors.grid },
      },
      y: {
        type: 'linear',
        beginAtZero: true,
        ticks: { color: colors.text, callback: (value) => humanBytes(Number(value)) },
        grid: { color: colors.grid },
      },
    },
  };
}

function chartData(colors: SpaceColors, readings: readonly SpaceReading[], forecast: SpaceForecast | null): ChartData<'line'> {
  const points = (value: (reading: SpaceReading) => number) => readings.map((reading) => ({ x: Date.parse(reading.at), y: value(reading) }));
  const line = forecastLine(readings, forecast);
  return {
    datasets: [
      {
        label: 'Used',
        data: points((reading) => reading.capacity_bytes - reading.free_bytes),
        borderColor: colors.used,
        backgroundColor: colors.used,
        borderWidth: 2,
        pointStyle: 'circle',
        pointRadius: 3,
      },
      {
        // Told apart without colour too: dashed, square points.
        label: 'Size',
        data: points((reading) => reading.capacity_bytes),
        borderColor: colors.capacity,
        backgroundColor: colors.capacity,
        borderWidth: 2,
        borderDash: [6, 4],
        pointStyle: 'rect',
        pointRadius: 3,
      },
      ...(line
        ? [
            {
              label: 'Forecast',
              data: line,
              borderColor: colors.forecast,
              backgroundColor: colors.forecast,
              borderWidth: 2,
              borderDash: [2, 3],
              pointStyle: 'triangle' as const,
              pointRadius: 5,
            },
          ]
        : []),
    ],
  };
}

/**
 * A share's used bytes and size over its capacity readings, and the forecast's line from the
 * latest reading to the size at the full date. Drawn in the theme's colours; the sentence under
 * it and "Show as table" carry the same numbers for those who do not see it.
 */
export function ShareSpaceChart({
  readings,
  forecast,
  subject,
  summaryId,
}: {
  readings: readonly SpaceReading[];
  forecast: SpaceForecast | null;
  subject: string;
  summaryId: string;
}) {
  const swatches = useRef<HTMLSpanElement>(null);
  const [colors, setColors] = useState<SpaceColors>();
  const readTheme = useCallback(() => {
    if (swatches.current) setColors(readColors(swatches.current));
  }, []);
  useLayoutEffect(readTheme, [readTheme]);
  useThemeChanges(readTheme);
  const options = useMemo(() => colors && chartOptions(colors), [colors]);
  const data = useMemo(() => colors && chartData(colors, readings, forecast), [colors, readings, forecast]);
  return (
    <>
      <div className="chart-box">
        {/* react-chartjs-2 gives the canvas role img: its name and the sentence that describes it go there. */}
        {options && data && (
          <Line options={options} data={data} aria-label={`Line chart: used space and size of ${subject}, with the forecast`} aria-describedby={summaryId} />
        )}
      </div>
      <span ref={swatches} className="chart-swatches" aria-hidden="true">
        {swatchNames.map((name) => (
          <span key={name} data-swatch={name} />
        ))}
      </span>
    </>
  );
}
