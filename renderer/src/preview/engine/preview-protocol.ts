/** Messages between the renderer and its preview worker (preview-worker.ts). */
import type { FieldValues, PreviewResult } from '../../../../src/ipc/contract';
import type { Template } from '../../../../src/model/schema';

export interface PreviewAsk {
  seq: number;
  /** The template this preview is of, by the id the renderer gave it when it first sent it. */
  templateId: number;
  /**
   * The template itself, only when it is new to the worker (a template switch): a keystroke sends its values,
   * not the template again — cloning it both ways and compiling it afresh was most of the worker's time (#21).
   */
  template?: Template;
  values: FieldValues;
  /** The id of a scene this worker sent that the renderer holds: only what changed since is sent. */
  since?: string;
}

/** `ok: false`: the worker cannot make this preview (an image by URL, its fonts not loaded): ask main. */
export type PreviewReply =
  { seq: number; ok: true; result: PreviewResult } | { seq: number; ok: false; why: string };
