export { renderSvg, type RenderSvgOptions } from './render-svg';
