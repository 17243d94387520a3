/**
 * The designer's canvas (react-konva, loaded lazily): rulers in the document's unit, the label card with the
 * Scene the preview engine made of the document (the same nodes the Print screen draws), and on top one
 * transparent box per element to select (click, Shift+click, marquee), drag (snapped to guides, then to whole
 * dots) and resize or rotate with a Transformer (several elements together, about their common box). Konva is
 * a view: every change goes to the design store, which owns the document and its history; a drag is one
 * coalesced entry, a resize or rotation of any number of elements one entry.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Group, Layer, Line, Rect, Stage, Text, Transformer } from 'react-konva';
import type Konva from 'konva';
import { inchesToStage, px, pxToInches, stageToPx } from '../../../../src/units/units';
import type { DesignDocument } from '../../design/design-document';
import { elementBox, type Box } from '../../design/geometry';
import { labelBox, placeBoxes, setProperties } from '../../design/operations';
import { guidesOf, snapMove, type Guide } from '../../design/snap';
import { Node } from '../../preview/konva-scene';
import type { KonvaLabel } from '../../preview/scene-to-konva';
import { useStores } from '../../store/stores-context';
import { RULER } from './design-canvas-constants';

/** How close (screen px) a dragged box must come to a guide to snap to it. */
const GUIDE_TOLERANCE = 6;
/** How far above the selection the rotation handle is, in screen px (on the stage even for y = 0). */
const ROTATE_HANDLE_OFFSET = 18;
/** Room around the label, in screen px. */
const MARGIN = 32;

const SELECT = '#2563eb';
const PROBLEM = '#c42b1c';
const GUIDE = '#db2777';

interface Props {
  doc: DesignDocument;
  selection: readonly number[];
  /** The scene drawn from the document (null while the first one is being made). */
  label: KonvaLabel | null;
  scale: number;
  /** Elements with a problem, outlined in red. */
  problemElements: ReadonlySet<number>;
  /** Why an element cannot be drawn (a barcode's value), written on it. */
  notes: ReadonlyMap<number, string>;
}

/** Ticks of a ruler: every minor step, a longer one at each major step with its number. */
function rulerTicks(lengthPx: number, unit: 'in' | 'mm', scale: number) {
  const unitPx = stageToPx(1, unit);
  const [minor, major] = unit === 'in' ? [0.125, 1] : [1, 10];
  // Fewer ticks when they would crowd each other.
  let step = minor;
  while (step * unitPx * scale < 5) step *= 2;
  const ticks: { at: number; major: boolean; label?: string }[] = [];
  const count = Math.floor(inchesToStage(pxToInches(px(lengthPx)), unit) / step + 1e-9);
  for (let i = 0; i <= count; i++) {
    const value = i * step;
    const isMajor = Math.abs(value / major - Math.round(value / major)) < 1e-9;
    ticks.push({
      at: stageToPx(value, unit) * scale,
      major: isMajor,
      ...(isMajor ? { label: String(Math.round(value)) } : {}),
    });
  }
  return ticks;
}

function Rulers({
  width,
  height,
  unit,
  scale,
}: {
  width: number;
  height: number;
  unit: 'in' | 'mm';
  scale: number;
}) {
  const across = useMemo(() => rulerTicks(width, unit, scale), [width, unit, scale]);
  const down = useMemo(() => rulerTicks(height, unit, scale), [height, unit, scale]);
  const length = (major: boolean) => (major ? RULER * 0.6 : RULER * 0.25);
  return (
    <Group listening={false}>
      <Rect x={0} y={0} width={RULER + width * scale + MARGIN} height={RULER} fill="#f9fafb" />
      <Rect x={0} y={0} width={RULER} height={RULER + height * scale + MARGIN} fill="#f9fafb" />
      <Text x={2} y={6} text={unit} fontSize={10} fill="#5b636e" />
      {across.map((t) => (
        <Group key={`x${t.at}`}>
          <Line
            points={[RULER + t.at, RULER, RULER + t.at, RULER - length(t.major)]}
            stroke="#5b636e"
            strokeWidth={1}
          />
          {t.label !== undefined && (
            <Text x={RULER + t.at + 2} y={2} text={t.label} fontSize={10} fill="#1f2328" />
          )}
        </Group>
      ))}
      {down.map((t) => (
        <Group key={`y${t.at}`}>
          <Line
            points={[RULER, RULER + t.at, RULER - length(t.major), RULER + t.at]}
            stroke="#5b636e"
            strokeWidth={1}
          />
          {t.label !== undefined && (
            <Text x={2} y={RULER + t.at + 2} text={t.label} fontSize={10} fill="#1f2328" />
          )}
        </Group>
      ))}
    </Group>
  );
}

const intersects = (a: Box, b: Box): boolean =>
  a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;

export default function DesignCanvas({ doc, selection, label, scale, problemElements, notes }: Props) {
  const { design } = useStores();
  const layer = useRef<Konva.Layer>(null);
  const transformer = useRef<Konva.Transformer>(null);
  const [marquee, setMarquee] = useState<{ from: { x: number; y: number }; box: Box; add: boolean } | null>(
    null,
  );
  const [snapped, setSnapped] = useState<{ x: Guide | null; y: Guide | null }>({ x: null, y: null });
  const drag = useRef<{ key: string; starts: Map<number, Box>; node: { x: number; y: number } } | null>(null);
  const dragSeq = useRef(0);

  const { template, unit } = doc;
  const card = labelBox(template);
  const boxes = useMemo(() => template.elements.map((el) => elementBox(el)), [template.elements]);
  const selected = useMemo(() => new Set(selection), [selection]);

  // The transformer follows the selection: one element or several resized and rotated together.
  useEffect(() => {
    const tr = transformer.current;
    const l = layer.current;
    if (!tr || !l) return;
    const nodes = selection.flatMap((i) => l.findOne(`.hit-${i}`) ?? []);
    tr.nodes(nodes);
    tr.getLayer()?.batchDraw();
  }, [selection, template, scale]);

  /** Pointer position in template px. */
  const pointer = (stage: Konva.Stage | null): { x: number; y: number } | null => {
    const p = stage?.getPointerPosition();
    return p ? { x: (p.x - RULER) / scale, y: (p.y - RULER) / scale } : null;
  };

  const onHitDown = (i: number, e: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    e.cancelBubble = true;
    const { selection: now } = design.getState();
    const shift = 'shiftKey' in e.evt && e.evt.shiftKey;
    if (shift) design.getState().select(now.includes(i) ? now.filter((j) => j !== i) : [...now, i]);
    else if (!now.includes(i)) design.getState().select([i]);
  };

  const onDragStart = (i: number, e: Konva.KonvaEventObject<DragEvent>) => {
    const state = design.getState();
    const moving = state.selection.includes(i) ? state.selection : [i];
    if (!state.selection.includes(i)) state.select([i]);
    const els = state.doc?.template.elements ?? [];
    drag.current = {
      key: `drag:${++dragSeq.current}`,
      starts: new Map(moving.flatMap((j) => (els[j] ? [[j, elementBox(els[j])] as const] : []))),
      node: { x: e.target.x(), y: e.target.y() },
    };
  };

  const onDragMove = (i: number, e: Konva.KonvaEventObject<DragEvent>) => {
    const d = drag.current;
    const start = d?.starts.get(i);
    const current = design.getState().doc;
    if (!d || !start || !current) return;
    const moved = {
      ...start,
      x: start.x + (e.target.x() - d.node.x),
      y: start.y + (e.target.y() - d.node.y),
    };
    const snap = snapMove(moved, guidesOf(current.template, new Set(d.starts.keys())), {
      dpi: current.dpi,
      tolerance: GUIDE_TOLERANCE,
      zoom: scale,
    });
    const dx = snap.box.x - start.x;
    const dy = snap.box.y - start.y;
    // The node shows where the element lands, not where the pointer is.
    e.target.position({ x: d.node.x + dx, y: d.node.y + dy });
    setSnapped({ x: snap.x, y: snap.y });
    const next = new Map([...d.starts].map(([j, box]) => [j, { ...box, x: box.x + dx, y: box.y + dy }]));
    design.getState().placeBoxes(next, { coalesceKey: d.key });
  };

  const onDragEnd = () => {
    drag.current = null;
    setSnapped({ x: null, y: null });
    design.getState().endCoalescing();
  };

  /**
   * A resize or rotation ended: every node the transformer held (one element, or several turned or scaled
   * together about their common box) becomes its element's new box and rotation, in one change.
   */
  const onTransformEnd = () => {
    const tr = transformer.current;
    if (!tr) return;
    const placed = new Map<number, Box>();
    const rotations = new Map<number, number>();
    for (const node of tr.nodes()) {
      const i = Number(/^hit-(\d+)$/.exec(node.name())?.[1]);
      const before = boxes[i];
      if (!Number.isInteger(i) || !before) continue;
      const sx = node.scaleX();
      const sy = node.scaleY();
      // The element's own size scaled (the grab area of a thin line is larger than the line).
      placed.set(i, {
        x: node.x() - node.offsetX() * sx,
        y: node.y() - node.offsetY() * sy,
        width: before.width * sx,
        height: before.height * sy,
      });
      rotations.set(i, Math.round(node.rotation() * 100) / 100);
      // Several nodes of different angles scaled together come back skewed: the element has no skew.
      node.setAttrs({ scaleX: 1, scaleY: 1, skewX: 0, skewY: 0 });
    }
    if (!placed.size) return;
    design
      .getState()
      .change((d) =>
        [...rotations].reduce(
          (doc, [i, rotation]) => setProperties(doc, [i], { rotation }),
          placeBoxes(d, placed),
        ),
      );
  };

  const onStageDown = (e: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    // The transformer's handles resize and rotate; they start no marquee.
    const tr = transformer.current;
    if (tr && ((e.target as Konva.Node) === tr || e.target.getParent() === tr)) return;
    const at = pointer(e.target.getStage());
    if (!at) return;
    const add = 'shiftKey' in e.evt && e.evt.shiftKey;
    setMarquee({ from: at, box: { ...at, width: 0, height: 0 }, add });
  };

  const onStageMove = (e: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    if (!marquee) return;
    const at = pointer(e.target.getStage());
    if (!at) return;
    const { from } = marquee;
    setMarquee({
      ...marquee,
      box: {
        x: Math.min(from.x, at.x),
        y: Math.min(from.y, at.y),
        width: Math.abs(at.x - from.x),
        height: Math.abs(at.y - from.y),
      },
    });
  };

  const onStageUp = () => {
    if (!marquee) return;
    const { box, add } = marquee;
    setMarquee(null);
    const picked =
      box.width * scale < 3 && box.height * scale < 3
        ? []
        : boxes.flatMap((b, i) => (intersects(b, box) ? [i] : []));
    design.getState().select(add ? [...design.getState().selection, ...picked] : picked);
  };

  const single = selection.length === 1 ? template.elements[selection[0]!] : undefined;

  return (
    <Stage
      width={Math.ceil(RULER + card.width * scale + MARGIN)}
      height={Math.ceil(RULER + card.height * scale + MARGIN)}
      onMouseDown={onStageDown}
      onTouchStart={onStageDown}
      onMouseMove={onStageMove}
      onTouchMove={onStageMove}
      onMouseUp={onStageUp}
      onTouchEnd={onStageUp}
    >
      <Layer ref={layer}>
        <Rulers width={card.width} height={card.height} unit={unit} scale={scale} />
        <Group x={RULER} y={RULER} scaleX={scale} scaleY={scale}>
          <Rect
            x={0}
            y={0}
            width={card.width}
            height={card.height}
            fill={label?.background ?? template.stage.background ?? '#ffffff'}
            shadowColor="rgba(16, 24, 40, 0.25)"
            shadowBlur={12}
            shadowOffsetY={2}
            listening={false}
          />
          {label && (
            <Group scaleX={label.unitScale} scaleY={label.unitScale} listening={false}>
              {label.nodes.map((spec) => (
                <Node key={spec.key} spec={spec} />
              ))}
            </Group>
          )}
          {template.elements.map((el, i) => {
            const box = boxes[i]!;
            // A line or a box with no height still has something to grab.
            const minimum = 6 / scale;
            return (
              <Rect
                key={i}
                name={`hit-${i}`}
                x={el.x}
                y={el.y}
                offsetX={el.x - box.x}
                offsetY={el.y - box.y}
                width={Math.max(box.width, minimum)}
                height={Math.max(box.height, minimum)}
                rotation={el.rotation}
                fill="rgba(0,0,0,0)"
                stroke={
                  problemElements.has(i) ? PROBLEM : selected.has(i) ? undefined : 'rgba(37,99,235,0.25)'
                }
                strokeWidth={problemElements.has(i) ? 2 / scale : 1 / scale}
                dash={problemElements.has(i) ? [4 / scale, 3 / scale] : undefined}
                draggable
                onMouseDown={(e) => onHitDown(i, e)}
                onTouchStart={(e) => onHitDown(i, e)}
                onDragStart={(e) => onDragStart(i, e)}
                onDragMove={(e) => onDragMove(i, e)}
                onDragEnd={onDragEnd}
                onMouseEnter={(e) => {
                  const c = e.target.getStage()?.container();
                  if (c) c.style.cursor = 'move';
                }}
                onMouseLeave={(e) => {
                  const c = e.target.getStage()?.container();
                  if (c) c.style.cursor = 'default';
                }}
              />
            );
          })}
          {[...notes].map(([i, note]) => {
            const box = boxes[i];
            if (!box) return null;
            // Readable at any zoom: 11 screen px, across the element's box (at least 120 px wide).
            const size = 11 / scale;
            const width = Math.max(box.width, 120 / scale);
            return (
              <Group key={`note-${i}`} x={box.x} y={box.y} listening={false}>
                <Rect width={width} height={box.height} fill="rgba(255,255,255,0.85)" />
                <Text
                  text={note}
                  width={width}
                  height={box.height}
                  padding={3 / scale}
                  fontSize={size}
                  fill={PROBLEM}
                  wrap="word"
                  ellipsis
                  verticalAlign="middle"
                />
              </Group>
            );
          })}
          {snapped.x && (
            <Line
              points={[snapped.x.at, -MARGIN, snapped.x.at, card.height + MARGIN]}
              stroke={GUIDE}
              strokeWidth={1 / scale}
              listening={false}
            />
          )}
          {snapped.y && (
            <Line
              points={[-MARGIN, snapped.y.at, card.width + MARGIN, snapped.y.at]}
              stroke={GUIDE}
              strokeWidth={1 / scale}
              listening={false}
            />
          )}
          {marquee && (
            <Rect
              {...marquee.box}
              fill="rgba(37,99,235,0.08)"
              stroke={SELECT}
              strokeWidth={1 / scale}
              dash={[4 / scale, 3 / scale]}
              listening={false}
            />
          )}
        </Group>
        <Transformer
          ref={transformer}
          onTransformEnd={onTransformEnd}
          keepRatio={false}
          flipEnabled={false}
          ignoreStroke
          borderStroke={SELECT}
          anchorStroke={SELECT}
          anchorSize={8}
          rotationSnaps={[0, 90, 180, 270]}
          // Konva's 50 px put the handle off the stage for an element near the label's top (24 px of ruler).
          rotateAnchorOffset={ROTATE_HANDLE_OFFSET}
          enabledAnchors={
            single?.type === 'line' && boxes[selection[0]!]!.height === 0
              ? ['middle-left', 'middle-right']
              : undefined
          }
          boundBoxFunc={(old, next) => (next.width < 2 || next.height < 2 ? old : next)}
        />
      </Layer>
    </Stage>
  );
}
