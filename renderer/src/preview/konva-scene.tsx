/**
 * Draws a KonvaLabel with react-konva at a scale. Loaded lazily (Konva is the heaviest part of the app).
 * Clicking a node reports its markup element; the selected element gets a dashed outline.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Ellipse, Group, Image as KonvaImage, Layer, Path, Rect, Stage } from 'react-konva';
import type Konva from 'konva';
import type { KonvaLabel, KonvaSpec } from './scene-to-konva';
import { assertNever } from '../../../src/base/assert-never';
import { markPreviewPainted } from './paint-marks';

interface Props {
  label: KonvaLabel;
  scale: number;
  selected: number | null;
  onSelect(element: number | null): void;
}

/** Images arrive as data URLs; decoded once per src. */
function useImage(src: string): HTMLImageElement | undefined {
  const [image, setImage] = useState<HTMLImageElement>();
  useEffect(() => {
    const img = new window.Image();
    let live = true;
    img.onload = () => live && setImage(img);
    img.src = src;
    return () => {
      live = false;
    };
  }, [src]);
  return image;
}

function SceneImage({ spec }: { spec: Extract<KonvaSpec, { type: 'image' }> }) {
  const { src, key: _key, ...props } = spec;
  const image = useImage(src);
  return image ? <KonvaImage {...props} image={image} /> : null;
}

/**
 * One description's Konva node; the same description (an unchanged element) is not rendered again. The
 * designer's canvas draws the scene with it too.
 */
export const Node = memo(function Node({ spec }: { spec: KonvaSpec }) {
  switch (spec.type) {
    case 'rect': {
      const { key: _key, type: _type, ...props } = spec;
      return <Rect {...props} perfectDrawEnabled={false} />;
    }
    case 'ellipse': {
      const { key: _key, type: _type, ...props } = spec;
      return <Ellipse {...props} perfectDrawEnabled={false} />;
    }
    case 'path': {
      const { key: _key, type: _type, ...props } = spec;
      return <Path {...props} perfectDrawEnabled={false} />;
    }
    case 'image':
      return <SceneImage spec={spec} />;
    case 'group': {
      const { key: _key, type: _type, children, ...props } = spec;
      return (
        <Group {...props}>
          {children.map((child) => (
            <Node key={child.key} spec={child} />
          ))}
        </Group>
      );
    }
    default:
      return assertNever(spec, 'konva spec');
  }
});

export default function KonvaScene({ label, scale, selected, onSelect }: Props) {
  const layer = useRef<Konva.Layer>(null);
  const [outline, setOutline] = useState<{ x: number; y: number; width: number; height: number } | null>(
    null,
  );

  useEffect(() => {
    const l = layer.current;
    if (!l) return;
    const painted = () => markPreviewPainted('screen');
    l.on('draw', painted);
    return () => {
      l.off('draw', painted);
    };
  }, []);

  useEffect(() => {
    const l = layer.current;
    if (!l || selected === null) {
      setOutline(null);
      return;
    }
    const nodes = l.find(`.el-${selected}`);
    if (nodes.length === 0) {
      setOutline(null);
      return;
    }
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const node of nodes) {
      const r = node.getClientRect({ relativeTo: l, skipStroke: true });
      [x0, y0] = [Math.min(x0, r.x), Math.min(y0, r.y)];
      [x1, y1] = [Math.max(x1, r.x + r.width), Math.max(y1, r.y + r.height)];
    }
    setOutline({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
  }, [selected, label]);

  const nodes = useMemo(() => label.nodes.map((spec) => <Node key={spec.key} spec={spec} />), [label]);

  const elementOf = (target: Konva.Node): number | null => {
    for (let n: Konva.Node | null = target; n; n = n.getParent()) {
      const element = n.getAttr('element') as unknown;
      if (typeof element === 'number') return element;
    }
    return null;
  };

  return (
    <Stage
      width={Math.ceil(label.width * scale)}
      height={Math.ceil(label.height * scale)}
      scaleX={scale}
      scaleY={scale}
      onClick={(e) => onSelect(elementOf(e.target))}
      onTap={(e) => onSelect(elementOf(e.target))}
      onMouseMove={(e) => {
        const container = e.target.getStage()?.container();
        if (container) container.style.cursor = elementOf(e.target) === null ? 'default' : 'pointer';
      }}
    >
      <Layer ref={layer}>
        <Rect
          x={0}
          y={0}
          width={label.width}
          height={label.height}
          fill={label.background}
          listening={false}
        />
        <Group scaleX={label.unitScale} scaleY={label.unitScale}>
          {nodes}
        </Group>
        {outline && (
          <Rect
            {...outline}
            stroke="#2563eb"
            strokeWidth={1.5 / scale}
            dash={[4 / scale, 3 / scale]}
            listening={false}
          />
        )}
      </Layer>
    </Stage>
  );
}
