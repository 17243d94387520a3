/** Entry point: connect to main (Electron preload or web mode), make the stores, render, start. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectApi } from './ipc/connect';
import { App } from './app';
import { downloadFile } from './lib/download';
import { printSvg } from './lib/system-print';
import { createStores, startApp } from './store';
import { StoresProvider } from './store/stores-context';
import { startPreviewEngine } from './preview/engine/preview-engine';
import { loadKonvaScene } from './preview/konva-scene-loader';
import './styles/app.css';

const previewEngine = startPreviewEngine();
const stores = createStores(connectApi(), {
  saveFile: (f) => downloadFile(f),
  printSvg: (svg, page) => printSvg(svg, page),
  previewEngine,
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>
  </StrictMode>,
);

void startApp(stores).finally(() => {
  // The preview's engine, its fonts and the Konva chunk once the app has started and the browser is idle.
  const later = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  later(() => {
    previewEngine.warm();
    void loadKonvaScene().catch(() => undefined);
  });
});
