/** The 1-bit PNG of the printer view: src/node/mono-png.ts (shared with the PNG of ZPL labels). */
export { monoToPng } from '../../src/node/mono-png';
