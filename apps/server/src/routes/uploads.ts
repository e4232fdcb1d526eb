import { IdParamsSchema, MAX_UPLOAD_BYTES } from '@argus/protocol';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../app-services';
import {
  NOT_AN_IMAGE,
  storeDesignUpload,
  toUploadedDesign,
  UPLOAD_TOO_LARGE,
} from '../comparison/design-uploads';
import { AppError } from '../errors';
import type { DesignLinkKind, SignedQuery } from '../storage/signed-urls';
import { mountRoutes, routeGroup, routeOf } from './route-group';

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
export type UploadRouteServices = Pick<Services, 'repos' | 'blobs' | 'urls' | 'comparisons'> & {
  config: Pick<Services['config'], 'maxStoredBytesPerUser'>;
};

/** The image posted as multipart field `file`, read with the limits of the multipart plugin. */
async function postedImage(request: FastifyRequest): Promise<{ data: Buffer; filename: string | undefined }> {
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
    return { filename: part.filename, data: await part.toBuffer() };
  } catch (error) {
    throw multipartError(error) ?? error;
  }
}

/** An uploaded design or its thumbnail, through its signed link. */
async function serve(
  services: UploadRouteServices,
  kind: DesignLinkKind,
  {
    request,
    reply,
    params: { id },
  }: { request: FastifyRequest; reply: FastifyReply; params: { id: string } },
) {
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
}

const signedImage = { type: 'image/*', description: 'The image (the link is signed and expires)' };

/**
 * Design uploads (issue 11). `POST /api/uploads` takes the login token as `Authorization: Bearer` and
 * one image as multipart field `file`, streamed with a hard 10 MB cap; what it is comes from its bytes.
 * The image and its thumbnail open through short-lived links signed for that upload and its owner
 * (`services.urls.design`), like screenshots: no login token ever sits in a URL.
 */
const route = routeOf<UploadRouteServices>();

export const UPLOAD_ROUTES = routeGroup('/api/uploads', [
  route({
    method: 'POST',
    path: '/',
    summary: 'Upload a design image (multipart)',
    tag: 'Design comparison',
    auth: 'login-token',
    status: 201,
    handle: async ({ request, user }, services) => {
      // Per user: UPLOADS_PER_USER a window (429 RATE_LIMITED) and one at a time (429 COMPARISON_BUSY),
      // both refused before the body is read; the quota is checked before the decode.
      const row = await services.comparisons.upload(user.id, async () => {
        const { data, filename } = await postedImage(request);
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
      return toUploadedDesign(row, services.urls);
    },
  }),
  route({
    method: 'GET',
    path: '/:id/image',
    summary: 'An uploaded design',
    tag: 'Design comparison',
    auth: 'none',
    params: IdParamsSchema,
    media: signedImage,
    handle: async (input, services) => serve(services, 'upload', input),
  }),
  route({
    method: 'GET',
    path: '/:id/thumbnail',
    summary: "An uploaded design's thumbnail",
    tag: 'Design comparison',
    auth: 'none',
    params: IdParamsSchema,
    media: signedImage,
    handle: async (input, services) => serve(services, 'upload-thumbnail', input),
  }),
]);

export async function uploadRoutes(app: FastifyInstance, services: UploadRouteServices) {
  // Encapsulated here: only these routes read multipart bodies. One file part, nothing else of size.
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 100 },
    throwFileSizeLimit: true,
  });
  mountRoutes(app, UPLOAD_ROUTES, services);
}
