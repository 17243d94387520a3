/**
 * The live preview: the label as a white card on a grey canvas, redrawn from each new Scene; zoom (fit,
 * 100 %, steps); click an element to focus its field; "Printer view" shows the 1-bit raster the head burns.
 */
import { Suspense, lazy, useEffect, useMemo, useRef } from 'react';
import { ErrorNotice } from '../components/error-notice';
import { ZoomStepper } from '../components/zoom-stepper';
import { useSize } from '../lib/use-size';
import { useDocument, useStores, useUi } from '../store/stores-context';
import { fieldsForElement, sceneToKonva } from './scene-to-konva';
import { notdefLines, sceneText } from './scene-text';
import { markPreviewPainted } from './paint-marks';
import { loadKonvaScene } from './konva-scene-loader';

const KonvaScene = lazy(loadKonvaScene);

/** Room left around the label when it is fitted, in CSS px. */
const FIT_MARGIN = 48;

export function PreviewPanel() {
  const { ui, document } = useStores();
  const scene = useDocument((s) => s.scene);
  const previewError = useDocument((s) => s.previewError);
  const detail = useDocument((s) => s.detail);
  const loading = useDocument((s) => s.loading);
  const printer = useDocument((s) => s.printer);
  const raster = useDocument((s) => s.raster);
  const rasterError = useDocument((s) => s.rasterError);
  const zoom = useUi((s) => s.zoom);
  const fitScale = useUi((s) => s.fitScale);
  const printerView = useUi((s) => s.printerView);
  const selected = useUi((s) => s.selectedElement);
  const canvas = useRef<HTMLDivElement>(null);
  const size = useSize(canvas);

  const label = useMemo(() => (scene ? sceneToKonva(scene) : null), [scene]);
  const text = useMemo(() => (scene ? sceneText(scene) : []), [scene]);
  const notdef = useMemo(() => (scene ? notdefLines(scene) : 0), [scene]);

  useEffect(() => {
    if (!label || size.width === 0) return;
    const fit = Math.min((size.width - FIT_MARGIN) / label.width, (size.height - FIT_MARGIN) / label.height);
    ui.getState().setFitScale(Math.max(0.05, Math.min(fit, 8)));
  }, [label, size.width, size.height, ui]);

  // The raster when the printer view is turned on or the printer changes; while it is on, each change of the
  // values asks for it alongside the scene (the document store; the latest answer wins).
  useEffect(() => {
    if (printerView) void document.getState().loadRaster();
  }, [printerView, printer, document]);

  const scale = zoom === 'fit' ? fitScale : zoom;

  const onSelect = (element: number | null) => {
    ui.getState().selectElement(element);
    const [field] = fieldsForElement(detail?.elementFields, element ?? undefined);
    if (field) ui.getState().focusField(field);
  };

  return (
    <section className="card preview-card" aria-labelledby="preview-title">
      <div className="preview-toolbar">
        <h2 id="preview-title">Preview</h2>
        <div className="zoom" role="group" aria-label="Zoom">
          <ZoomStepper scale={scale} onStep={(d) => ui.getState().zoomBy(d)} />
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-pressed={zoom === 'fit'}
            onClick={() => ui.getState().setZoom('fit')}
          >
            Fit
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-pressed={zoom === 1}
            onClick={() => ui.getState().setZoom(1)}
          >
            100%
          </button>
        </div>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={printerView}
            onChange={(e) => ui.getState().setPrinterView(e.target.checked)}
          />
          <span className="switch-track" aria-hidden="true" />
          Printer view
        </label>
      </div>
      {previewError && <ErrorNotice error={previewError} />}
      {printerView && rasterError && <ErrorNotice error={rasterError} />}
      <div className="preview-canvas" ref={canvas}>
        {label ? (
          <div
            className="label-card"
            data-testid="preview"
            data-lines={text.join('\n')}
            data-notdef={notdef}
            data-view={printerView ? 'printer' : 'screen'}
            role="img"
            aria-label="Label preview"
            aria-describedby="preview-text"
            style={{ width: Math.ceil(label.width * scale), height: Math.ceil(label.height * scale) }}
          >
            {printerView ? (
              raster ? (
                <>
                  {/* What burns, at its share of the label; the rest of the label is marked as cut off. */}
                  <img
                    className="raster"
                    src={raster.dataUrl}
                    alt=""
                    width={Math.ceil(((label.width * raster.widthDots) / raster.labelWidthDots) * scale)}
                    height={Math.ceil(((label.height * raster.heightDots) / raster.labelHeightDots) * scale)}
                    data-dpi={raster.dpi}
                    onLoad={() => markPreviewPainted('printer')}
                  />
                  {raster.cut && (
                    <div
                      className="raster-cut"
                      role="img"
                      aria-label={`Cut off: ${raster.cut} of the label do not print on this printer`}
                      style={{ left: `${(raster.widthDots / raster.labelWidthDots) * 100}%` }}
                    >
                      <span aria-hidden="true">Not printed</span>
                    </div>
                  )}
                </>
              ) : (
                <p className="muted preview-wait">Rendering at the printer’s dpi…</p>
              )
            ) : (
              <Suspense fallback={<p className="muted preview-wait">Loading preview…</p>}>
                <KonvaScene label={label} scale={scale} selected={selected} onSelect={onSelect} />
              </Suspense>
            )}
          </div>
        ) : (
          <p className="muted preview-wait" data-testid="preview-empty">
            {loading ? 'Loading…' : detail ? 'Rendering…' : 'The label appears here.'}
          </p>
        )}
      </div>
      <p id="preview-text" className="visually-hidden">
        {text.length ? `The label reads: ${text.join(', ')}` : ''}
      </p>
      {printerView && raster && (
        <p className="muted small preview-note">
          {raster.widthDots} × {raster.heightDots} dots at {raster.dpi} dpi
          {raster.dpiAssumed
            ? " (assumed: this printer's resolution is not known yet)."
            : ': exactly what the print head burns.'}
          {raster.cut &&
            ` The label is ${raster.labelWidthDots} × ${raster.labelHeightDots} dots: ${raster.cut} are cut off (shown hatched).`}
        </p>
      )}
      {scene && scene.warnings.length > 0 && (
        <ul className="preview-warnings">
          {scene.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
