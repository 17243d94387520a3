export { renderSvg, svgLengthUnit, type RenderSvgOptions, type SvgLengthUnit } from './render-svg';
