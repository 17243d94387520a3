/** Shared by the Design screen and its lazily loaded canvas (which holds Konva). */

/** Width of the canvas's rulers along the top and left, in screen px. */
export const RULER = 24;
