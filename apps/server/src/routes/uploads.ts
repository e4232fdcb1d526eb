import { IdParamsSchema, MAX_UPLOAD_BYTES } from '@argus/protocol';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  NOT_AN_IMAGE,
  storeDesignUpload,
  toUploadedDesign,
  UPLOAD_TOO_LARGE,
} from '../comparison/design-uploads';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { bearerToken } from '../plugins/authenticate';
import type { DesignLinkKind, SignedQuery } from '../storage/signed-urls';
import { parseWith } from '../validation';

/** The multipart errors of @fastify/multipart, by code, as our own refusals. */
function multipartError(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE', UPLOAD_TOO_LARGE);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the image as multipart/form-data with the file in the field "file"',
    );
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new AppError('PAYLOAD_TOO_LARGE', 'Send one image per upload');
  return null;
}

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type UploadRouteServices = Pick<Services, 'auth' | 'repos' | 'blobs' | 'urls' | 'comparisons'> & {
  config: Pick<Services['config'], 'maxStoredBytesPerUser'>;
};

/**
 * Design uploads (issue 11). `POST /api/uploads` takes the login token as `Authorization: Bearer` and
 * one image as multipart field `file`, streamed with a hard 10 MB cap; what it is comes from its bytes.
 * The image and its thumbnail open through short-lived links signed for that upload and its owner
 * (`services.urls.design`), like screenshots: no login token ever sits in a URL.
 */
export async function uploadRoutes(app: FastifyInstance, services: UploadRouteServices) {
  // Encapsulated here: only these routes read multipart bodies. One file part, nothing else of size.
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 100 },
    throwFileSizeLimit: true,
  });

  const userOf = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw new AppError('UNAUTHENTICATED', undefined, { 'www-authenticate': 'Bearer' });
    return services.auth.userFromToken(token);
  };

  app.post('/api/uploads', async (request, reply) => {
    const user = await userOf(request);
    // Per user: UPLOADS_PER_USER a window (429 RATE_LIMITED) and one at a time (429 COMPARISON_BUSY),
    // both refused before the body is read; the quota is checked before the decode.
    const row = await services.comparisons.upload(user.id, async () => {
      let data: Buffer;
      let filename: string | undefined;
      try {
        const part = await request.file();
        if (part?.fieldname !== 'file') {
          throw new AppError('VALIDATION', [
            {
              loc: ['body', 'file'],
              msg: 'Choose an image to upload (multipart field "file")',
              type: 'missing',
            },
          ]);
        }
        filename = part.filename;
        data = await part.toBuffer();
      } catch (error) {
        throw multipartError(error) ?? error;
      }
      if (data.length === 0) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
      return storeDesignUpload(
        {
          repos: services.repos,
          blobs: services.blobs,
          urls: services.urls,
          maxStoredBytesPerUser: services.config.maxStoredBytesPerUser,
          imageWork: services.comparisons.decodeWork,
        },
        user.id,
        data,
        filename,
      );
    });
    return reply.code(201).send(toUploadedDesign(row, services.urls));
  });

  const serve = async (kind: DesignLinkKind, request: FastifyRequest, reply: FastifyReply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    // 401 without a signature, 403 for a wrong or expired one; the signature names the owner.
    const { ownerId, expires } = services.urls.verifyDesign(kind, id, request.query as SignedQuery);
    const row = await services.repos.designComparisons.upload(ownerId, id);
    if (!row) throw new AppError('NOT_FOUND', 'Upload not found');
    const thumb = kind === 'upload-thumbnail';
    const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
    return reply
      .type(thumb ? 'image/png' : row.content_type)
      .header('cache-control', `private, max-age=${maxAge}, immutable`)
      .header('content-length', thumb ? row.thumbnail_bytes : row.size)
      .send(services.blobs.read(thumb ? row.thumbnail_sha256 : row.sha256));
  };
  app.get('/api/uploads/:id/image', (request, reply) => serve('upload', request, reply));
  app.get('/api/uploads/:id/thumbnail', (request, reply) => serve('upload-thumbnail', request, reply));
}
