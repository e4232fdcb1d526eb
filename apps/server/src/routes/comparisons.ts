import {
  ComparisonListQuerySchema,
  ComparisonSummaryListSchema,
  IdParamsSchema,
  StoredComparisonSchema,
} from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import { toUploadedDesign } from '../comparison/design-uploads';
import { AppError } from '../errors';
import type { SignedQuery } from '../storage/signed-urls';
import { routeGroup, routeOf, routePlugin } from './route-group';

const SessionParamsSchema = z.object({ session_id: z.string().min(1).max(100) });

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ComparisonRouteServices = Pick<Services, 'repos' | 'blobs' | 'urls' | 'comparisons'>;

/**
 * `GET /api/comparisons`: the user's past comparisons (the latest of each design session, newest first,
 * `?limit=` at most 50). `GET /api/comparisons/:session_id`: the latest comparison of one of the user's design sessions, its
 * image links signed afresh, with the uploaded design it used (`design`, as POST /api/uploads answers); 404 when there is none of theirs. `GET /api/comparisons/images/:id`: one
 * image a comparison shows, through its signed link (owner bound by the signature, row read owner-scoped).
 */
const route = routeOf<ComparisonRouteServices>();

export const COMPARISON_ROUTES = routeGroup('/api/comparisons', [
  route({
    method: 'GET',
    path: '/images/:id',
    summary: "A comparison's image",
    tag: 'Design comparison',
    auth: 'none',
    params: IdParamsSchema,
    media: { type: 'image/*', description: 'The image (the link is signed and expires)' },
    handle: async ({ request, reply, params: { id } }, services) => {
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
    },
  }),
  route({
    method: 'GET',
    path: '/',
    summary: 'Design comparisons',
    tag: 'Design comparison',
    query: ComparisonListQuerySchema,
    response: ComparisonSummaryListSchema,
    handle: async ({ user, query: { limit } }, services) => {
      const rows = await services.repos.designComparisons.listLatest(user.id, { limit });
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
  }),
  route({
    method: 'GET',
    path: '/:session_id',
    summary: "A session's comparison",
    tag: 'Design comparison',
    params: SessionParamsSchema,
    response: StoredComparisonSchema,
    handle: async ({ user, params: { session_id } }, services) => {
      const stored = await services.comparisons.stored(user.id, session_id);
      if (!stored) throw new AppError('NOT_FOUND', 'This session has no comparison yet');
      // The uploaded design, owner-scoped, with links signed as POST /api/uploads signs them.
      const row = stored.file_id
        ? await services.repos.designComparisons.upload(user.id, stored.file_id)
        : undefined;
      return StoredComparisonSchema.parse({
        ...stored,
        design: row ? toUploadedDesign(row, services.urls) : null,
      });
    },
  }),
]);

export const comparisonRoutes = routePlugin(COMPARISON_ROUTES);
