/**
 * Node-only: the routes of `labeldesk serve` that answer files rather than operations — the exported SVGs (by
 * token, and the hosted client's download by storage path, with the key and secret), the browser SDK, the
 * OpenAPI document — and the 405 for a label route asked with another method.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, DOWNLOAD_SVG_ROUTE } from '../../label-api/contract';
import { HttpError } from '../../engine/http-errors';
import { openApiDocument } from '../../label-api/openapi';
import { JSON_TYPE } from './http-plumbing';
import { readSdkAsset } from './sdk-assets';
import type { SvgFiles } from './svg-files';

export interface FileRoutesOptions {
  svgs: SvgFiles;
  now: () => Date;
  /** The SDK bundle's path (sdk-assets.ts). */
  sdkBundle: string;
  /** The API's authentication hook (401/429 before the body is read). */
  authenticate: (req: FastifyRequest) => Promise<void>;
}

export function installFileRoutes(
  app: FastifyInstance,
  { svgs, now, sdkBundle, authenticate }: FileRoutesOptions,
): void {
  // The hosted API client's SVG download: the storage path of files[].path, with the key and secret.
  app.get<{ Querystring: { path?: unknown } }>(
    `${API_PREFIX}${DOWNLOAD_SVG_ROUTE}`,
    { onRequest: authenticate },
    async (req, reply) => {
      const path = req.query.path;
      if (typeof path !== 'string' || !path) {
        throw new HttpError(422, 'the path query parameter is required (files[].path of export-svg)', 'path');
      }
      const token = svgs.tokenOfPath(path);
      const file = token === undefined ? undefined : await svgs.read(token);
      if (!file) throw new HttpError(404, 'no such file, or it has expired', 'path');
      return sendSvg(reply, file);
    },
  );

  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: `${API_PREFIX}:route`,
    handler: async () => {
      throw new HttpError(405, `the API's routes take POST only (spec §4)`, undefined, {
        headers: { Allow: 'POST, OPTIONS' },
      });
    },
  });

  const openApi = JSON.stringify(openApiDocument(), null, 2);
  app.get('/openapi.json', async (_req, reply) => reply.type(JSON_TYPE).send(openApi));

  function sendSvg(reply: FastifyReply, file: { svg: Buffer; expiresAt: Date }): FastifyReply {
    const seconds = Math.max(0, Math.floor((file.expiresAt.getTime() - now().getTime()) / 1000));
    return reply
      .type('image/svg+xml')
      .header('Cache-Control', `private, max-age=${seconds}`)
      .header('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'")
      .header('X-Content-Type-Options', 'nosniff')
      .header('Access-Control-Allow-Origin', '*')
      .send(file.svg);
  }

  app.get<{ Params: { token: string } }>('/files/svg/:token', async (req, reply) => {
    const file = await svgs.read(req.params.token);
    if (!file) throw new HttpError(404, 'no such file, or it has expired');
    return sendSvg(reply, file);
  });

  app.get<{ Params: { '*': string } }>('/sdk/*', async (req, reply) => {
    const asset = await readSdkAsset(req.params['*'], sdkBundle);
    if (!asset) {
      throw new HttpError(
        404,
        req.params['*'] === 'labeldesk-sdk.js'
          ? 'the SDK is not built: run npm run build:sdk'
          : 'no such SDK file',
      );
    }
    return reply
      .type(asset.contentType)
      .header('Access-Control-Allow-Origin', '*')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-cache')
      .send(asset.body);
  });
}
