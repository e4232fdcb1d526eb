import {
  ComparisonListQuerySchema,
  type ComparisonSummary,
  ComparisonSummaryListSchema,
  IdParamsSchema,
  StoredComparisonSchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { toUploadedDesign } from '../comparison/design-uploads';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { currentUser } from '../plugins/authenticate';
import type { SignedQuery } from '../storage/signed-urls';
import { parseWith } from '../validation';

const SessionParamsSchema = z.object({ session_id: z.string().min(1).max(100) });

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ComparisonRouteServices = Pick<Services, 'repos' | 'blobs' | 'urls' | 'comparisons'>;

/**
 * `GET /api/comparisons`: the user's past comparisons (the latest of each design session, newest first,
 * `?limit=` at most 50). `GET /api/comparisons/:session_id`: the latest comparison of one of the user's design sessions, its
 * image links signed afresh, with the uploaded design it used (`design`, as POST /api/uploads answers); 404 when there is none of theirs. `GET /api/comparisons/images/:id`: one
 * image a comparison shows, through its signed link (owner bound by the signature, row read owner-scoped).
 */
export async function comparisonRoutes(app: FastifyInstance, services: ComparisonRouteServices) {
  app.get('/api/comparisons/images/:id', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const { ownerId, expires } = services.urls.verifyDesign(
      'comparison-image',
      id,
      request.query as SignedQuery,
    );
    const row = await services.repos.designComparisons.image(ownerId, id);
    if (!row) throw new AppError('NOT_FOUND', 'Image not found');
    const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
    return reply
      .type('image/png')
      .header('cache-control', `private, max-age=${maxAge}, immutable`)
      .header('content-length', row.bytes)
      .send(services.blobs.read(row.sha256));
  });

  app.get(
    '/api/comparisons',
    { preHandler: app.requireUser },
    async (request): Promise<ComparisonSummary[]> => {
      const { limit } = parseWith(ComparisonListQuerySchema, request.query, 'query');
      const rows = await services.repos.designComparisons.listLatest(currentUser(request).id, { limit });
      return ComparisonSummaryListSchema.parse(
        rows.map((row) => ({
          session_id: row.session_id,
          comparison_type: row.comparison_type,
          website_url: row.website_url,
          figma_url: row.figma_url,
          filename: row.filename,
          overall_similarity: row.overall_similarity,
          quality_rating: row.quality_rating,
          created_at: row.created_at.toISOString(),
        })),
      );
    },
  );

  app.get('/api/comparisons/:session_id', { preHandler: app.requireUser }, async (request) => {
    const { session_id } = parseWith(SessionParamsSchema, request.params, 'path');
    const userId = currentUser(request).id;
    const stored = await services.comparisons.stored(userId, session_id);
    if (!stored) throw new AppError('NOT_FOUND', 'This session has no comparison yet');
    // The uploaded design, owner-scoped, with links signed as POST /api/uploads signs them.
    const row = stored.file_id
      ? await services.repos.designComparisons.upload(userId, stored.file_id)
      : undefined;
    return StoredComparisonSchema.parse({
      ...stored,
      design: row ? toUploadedDesign(row, services.urls) : null,
    });
  });
}
