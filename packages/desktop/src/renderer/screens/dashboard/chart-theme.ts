import type { ChartOptions } from 'chart.js';

type LinePlugins = NonNullable<ChartOptions<'line'>['plugins']>;
type TooltipCallbacks = NonNullable<NonNullable<LinePlugins['tooltip']>['callbacks']>;

/** The theme's colours a legend and a tooltip draw with, resolved (a canvas cannot read the stylesheet's variables). */
export interface LegendColors {
  text: string;
  grid: string;
  surface: string;
}

/** A line chart's legend and tooltip in the theme's colours, their markers drawn as the lines' points; `callbacks` word the tooltip. */
export function themedLegendAndTooltip(colors: LegendColors, callbacks: TooltipCallbacks): LinePlugins {
  return {
    legend: { position: 'top', labels: { color: colors.text, usePointStyle: true, padding: 16 } },
    tooltip: {
      backgroundColor: colors.surface,
      titleColor: colors.text,
      bodyColor: colors.text,
      borderColor: colors.grid,
      borderWidth: 1,
      usePointStyle: true,
      callbacks,
    },
  };
}
