import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { Line } from 'react-chartjs-2';
import { humanBytes, preciseTime } from '../../ui/format.js';
import { useThemeChanges } from './use-theme-changes.js';
import { themedLegendAndTooltip } from './chart-theme.js';
import { scanText, timeTick, type Scan } from './scan-points.js';

// Only the pieces a line chart uses: Chart.js leaves the rest out of the bundle.
ChartJS.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Tooltip, Legend);
ChartJS.defaults.font.family = 'system-ui, sans-serif';
ChartJS.defaults.font.size = 13;

/** The theme's colours, resolved: a canvas draws with colours, not with the stylesheet's variables. */
interface ChartColors {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  size: string;
  files: string;
}

const swatchNames = ['text', 'muted', 'grid', 'surface', 'size', 'files'] as const satisfies ReadonlyArray<keyof ChartColors>;

/** Each swatch's `color` is one of styles.css's variables (dashboard.css): light-dark() resolved by the browser. */
function readColors(swatches: HTMLElement): ChartColors {
  const colorOf = (name: string) => getComputedStyle(swatches.querySelector(`[data-swatch="${name}"]`)!).color;
  return Object.fromEntries(swatchNames.map((name) => [name, colorOf(name)])) as unknown as ChartColors;
}

function chartOptions(colors: ChartColors, scans: readonly Scan[], onHover: (index: number) => void): ChartOptions<'line'> {
  const axisTitle = (text: string, color: string) => ({ display: true, text, color, font: { weight: 'bold' as const } });
  return {
    // No motion: a redraw (a theme change, a new share) is immediate, and nothing moves for those who asked for less.
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'index', intersect: false },
    onHover: (_event, elements) => {
      if (elements[0]) onHover(elements[0].index);
    },
    plugins: themedLegendAndTooltip(colors, {
      title: (items) => preciseTime(scans[items[0]?.dataIndex ?? 0]?.at),
      label: (item) => (item.datasetIndex === 0 ? `Size: ${humanBytes(item.parsed.y ?? 0)}` : `Files: ${(item.parsed.y ?? 0).toLocaleString('en')}`),
    }),
    scales: {
      // Proportional to time: scans a day apart stand further apart than scans a minute apart.
      x: {
        type: 'linear',
        ticks: {
          color: colors.muted,
          maxRotation: 0,
          autoSkipPadding: 16,
          callback(value) {
            return timeTick(Number(value), this.max - this.min);
          },
        },
        grid: { color: colors.grid },
      },
      size: {
        type: 'linear',
        position: 'left',
        beginAtZero: true,
        title: axisTitle('Size', colors.size),
        ticks: { color: colors.text, precision: 0, callback: (value) => humanBytes(Number(value)) },
        grid: { color: colors.grid },
      },
      files: {
        type: 'linear',
        position: 'right',
        beginAtZero: true,
        title: axisTitle('Files', colors.files),
        ticks: { color: colors.text, precision: 0 },
        grid: { drawOnChartArea: false },
      },
    },
  };
}

function chartData(colors: ChartColors, scans: readonly Scan[]): ChartData<'line'> {
  return {
    datasets: [
      {
        label: 'Size',
        yAxisID: 'size',
        data: scans.map((scan) => ({ x: Date.parse(scan.at), y: scan.file_size_sum })),
        borderColor: colors.size,
        backgroundColor: colors.size,
        borderWidth: 2,
        pointStyle: 'circle',
        pointRadius: 4,
        pointHoverRadius: 7,
      },
      {
        // Told apart without colour too: dashed, with diamond points.
        label: 'Files',
        yAxisID: 'files',
        data: scans.map((scan) => ({ x: Date.parse(scan.at), y: scan.file_count })),
        borderColor: colors.files,
        backgroundColor: colors.files,
        borderWidth: 2,
        borderDash: [6, 4],
        pointStyle: 'rectRot',
        pointRadius: 5,
        pointHoverRadius: 8,
      },
    ],
  };
}

interface ShareGrowthChartProps {
  /** Oldest first, as the chart reads left to right. */
  scans: readonly Scan[];
  /** "projects on filer". */
  subject: string;
  /** The visible sentence that sums the chart up. */
  summaryId: string;
}

/**
 * A share's size and file count over its scans, two lines on two axes. For the keyboard and
 * screen readers the chart is a slider over the scans: the arrow keys, Home and End step
 * through them, each read out in words (aria-valuetext) and shown with its tooltip; the sentence
 * under it sums it up, and the dashboard's "Show as table" has every number.
 */
export function ShareGrowthChart({ scans, subject, summaryId }: ShareGrowthChartProps) {
  const swatches = useRef<HTMLSpanElement>(null);
  const chart = useRef<ChartJS<'line'>>(null);
  const [colors, setColors] = useState<ChartColors>();
  const [active, setActive] = useState(scans.length - 1);
  const readTheme = useCallback(() => {
    if (swatches.current) setColors(readColors(swatches.current));
  }, []);
  useLayoutEffect(readTheme, [readTheme]);
  useThemeChanges(readTheme);

  const options = useMemo(() => colors && chartOptions(colors, scans, setActive), [colors, scans]);
  const data = useMemo(() => colors && chartData(colors, scans), [colors, scans]);

  /** The scan shown from the keyboard, while the chart has the focus. */
  const highlighted = useRef<number | null>(null);
  /** Shows scan `index` as a mouse over it would (both points and the tooltip), or nothing. */
  const highlight = useCallback((index: number | null) => {
    highlighted.current = index;
    const instance = chart.current;
    if (!instance) return;
    const elements = index === null ? [] : [0, 1].map((datasetIndex) => ({ datasetIndex, index }));
    instance.setActiveElements(elements);
    instance.tooltip?.setActiveElements(elements, { x: 0, y: 0 });
    instance.update();
  }, []);
  // New colours (a theme change) or data: the tooltip is built again with them, not left as it was
  // drawn (Chart.js keeps a tooltip whose elements did not change, so it is emptied first).
  useEffect(() => {
    const index = highlighted.current;
    if (index === null) return;
    highlight(null);
    highlight(index);
  }, [options, data, highlight]);
  const step = (index: number) => {
    const next = Math.min(scans.length - 1, Math.max(0, index));
    setActive(next);
    highlight(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: active + 1,
      ArrowUp: active + 1,
      ArrowLeft: active - 1,
      ArrowDown: active - 1,
      PageUp: active + 10,
      PageDown: active - 10,
      Home: 0,
      End: scans.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    step(target);
  };

  return (
    <>
      <div
        className="chart-box"
        role="slider"
        tabIndex={0}
        aria-label={`Scans of ${subject}`}
        aria-orientation="horizontal"
        aria-valuemin={1}
        aria-valuemax={scans.length}
        aria-valuenow={active + 1}
        aria-valuetext={scanText(scans, active)}
        aria-describedby={summaryId}
        onKeyDown={onKeyDown}
        onFocus={() => highlight(active)}
        onBlur={() => highlight(null)}
      >
        {options && data && (
          <Line ref={chart} options={options} data={data} aria-label={`Line chart: size and file count of ${subject} over ${scans.length} scans`} />
        )}
      </div>
      <p className="chart-readout" aria-hidden="true">
        {scanText(scans, active)}
      </p>
      <span ref={swatches} className="chart-swatches" aria-hidden="true">
        {swatchNames.map((name) => (
          <span key={name} data-swatch={name} />
        ))}
      </span>
    </>
  );
}
