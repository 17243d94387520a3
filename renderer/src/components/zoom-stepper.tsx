/** Zoom out, the zoom in percent (announced), zoom in: the start of the Print preview's and the designer's Zoom groups. */
import { Icon } from './icons';

export function ZoomStepper({
  scale,
  onStep,
  disabled = false,
}: {
  scale: number;
  onStep(direction: 1 | -1): void;
  disabled?: boolean;
}) {
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-icon"
        aria-label="Zoom out"
        disabled={disabled}
        onClick={() => onStep(-1)}
      >
        <Icon name="minus" size={16} />
      </button>
      <span className="zoom-value" aria-live="polite">
        {Math.round(scale * 100)}%
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-icon"
        aria-label="Zoom in"
        disabled={disabled}
        onClick={() => onStep(1)}
      >
        <Icon name="plus" size={16} />
      </button>
    </>
  );
}
