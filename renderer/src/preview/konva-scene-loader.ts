/**
 * The Konva preview chunk (the heaviest part of the app), loaded lazily: kept out of the first paint, and
 * fetched when the app is idle (main.tsx) so the first template picked does not wait for it (#21: the first
 * switch of a session took 550–740 ms, loading it).
 */
import type * as KonvaSceneModule from './konva-scene';

let loading: Promise<typeof KonvaSceneModule> | undefined;

export function loadKonvaScene(): Promise<typeof KonvaSceneModule> {
  loading ??= import('./konva-scene');
  return loading;
}
