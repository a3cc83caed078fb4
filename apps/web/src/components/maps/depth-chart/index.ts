/** The depth chart (uPlot, canvas). Not loadable under happy-dom: mock it in unit tests. */
export {
  DepthChart,
  depthChartColors,
  type DepthChartLine,
  type DepthChartPoint,
  type DepthChartProps,
} from './depth-chart';
