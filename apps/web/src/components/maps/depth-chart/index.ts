/** The depth chart (canvas; happy-dom draws none: mock it in unit tests). */
export {
  DepthChart,
  depthChartColors,
  type DepthChartLine,
  type DepthChartPoint,
  type DepthChartProps,
} from './depth-chart';
