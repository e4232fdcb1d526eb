import { IdParamsSchema, ScreenshotRecordSchema, TestCaseScreenshotsParamsSchema } from '@argus/protocol';
import type { Services } from '../app-services';
import { ownTestRun } from '../auth/ownership';
import { AppError } from '../errors';
import { storageQuotaError } from '../limits/quotas';
import { toScreenshotRef } from '../runs/run-recorder';
import { sniffImage } from '../storage/blob-store';
import type { SignedQuery } from '../storage/signed-urls';
import { parseWith } from '../validation';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** A base64 screenshot of up to 10 MB decoded, and some room for the rest of the record. */
const UPLOAD_BODY_LIMIT = 15 * 1024 * 1024;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ScreenshotRouteServices = Pick<Services, 'repos' | 'blobs' | 'urls'> & {
  config: Pick<Services['config'], 'maxStoredBytesPerUser'>;
};

/**
 * Screenshots are served to their owner only. Uploads and lists take the login token as
 * `Authorization: Bearer` and nowhere else. An <img> cannot send a header, so an image opens through a
 * short-lived link signed for that one screenshot and its owner (`services.urls`), handed out with
 * every screenshot reference: no login token ever sits in a URL, a history entry or a proxy log.
 */
const route = routeOf<ScreenshotRouteServices>();

export const SCREENSHOT_ROUTES = routeGroup('/api/screenshots', [
  route({
    method: 'POST',
    path: '/upload',
    summary: 'Store a screenshot of a run',
    tag: 'Automation',
    auth: 'login-token',
    status: 201,
    bodyLimit: UPLOAD_BODY_LIMIT,
    errorField: true,
    // The body is parsed here rather than declared: the OpenAPI document has never described it, and
    // this restructuring keeps the document as it was.
    handle: async ({ org, request }, services) => {
      const body = parseWith(ScreenshotRecordSchema, request.body, 'body');
      const runs = services.repos.testRuns;
      const run = await ownTestRun(services.repos, org.id, body.test_run_id);
      const base64 = body.image_data.replace(/^data:image\/[a-z+.-]+;base64,/i, '');
      const data = Buffer.from(base64, 'base64');
      if (data.length > MAX_IMAGE_BYTES)
        throw new AppError('PAYLOAD_TOO_LARGE', 'Screenshot is larger than 10 MB');
      const mime = sniffImage(data);
      if (!mime) {
        throw new AppError('VALIDATION', [
          { loc: ['body', 'image_data'], msg: 'Not a PNG, JPEG, WebP or GIF image', type: 'image_type' },
        ]);
      }
      // MAX_STORED_BYTES_PER_USER, checked before a byte is written.
      const used = await runs.storedBytes(org.id);
      const limit = services.config.maxStoredBytesPerUser;
      if (used + data.length > limit) throw storageQuotaError(used, limit, data.length);
      const sha256 = await services.blobs.put(data);
      const row = await runs.addScreenshot(org.id, {
        test_run_id: run.id,
        test_case_name: body.test_case_name,
        step_name: body.step_name ?? null,
        step_index: body.step_index,
        sha256,
        mime,
        bytes: data.length,
        width: body.width ?? null,
        height: body.height ?? null,
        metadata: body.metadata ?? {},
      });
      return toScreenshotRef(row, services.urls);
    },
  }),
  route({
    method: 'GET',
    path: '/test-run/:id',
    summary: "Signed links to a run's screenshots",
    tag: 'Automation',
    auth: 'login-token',
    params: IdParamsSchema,
    handle: async ({ org, params: { id } }, services) => {
      await ownTestRun(services.repos, org.id, id);
      const rows = await services.repos.testRuns.screenshots(org.id, [id]);
      return rows.map((row) => toScreenshotRef(row, services.urls));
    },
  }),
  route({
    method: 'GET',
    path: '/test-case/:id/:name',
    summary: "Signed links to a case's screenshots",
    tag: 'Automation',
    auth: 'login-token',
    params: TestCaseScreenshotsParamsSchema,
    handle: async ({ org, params: { id, name } }, services) => {
      await ownTestRun(services.repos, org.id, id);
      const rows = await services.repos.testRuns.screenshots(org.id, [id], name);
      return rows.map((row) => toScreenshotRef(row, services.urls));
    },
  }),
  route({
    method: 'GET',
    path: '/:id',
    summary: 'A signed link to one screenshot',
    tag: 'Automation',
    auth: 'login-token',
    params: IdParamsSchema,
    // A screenshot named by id elsewhere (a repair's before and after, docs/REPAIRS.md), with its link.
    handle: async ({ org, params: { id } }, services) => {
      const row = await services.repos.testRuns.screenshot(org.id, id);
      if (!row) throw new AppError('NOT_FOUND', 'Screenshot not found');
      return toScreenshotRef(row, services.urls);
    },
  }),
  route({
    method: 'GET',
    path: '/:id/image',
    summary: 'A screenshot',
    tag: 'Automation',
    auth: 'none',
    params: IdParamsSchema,
    media: { type: 'image/*', description: 'The image (the link is signed and expires)' },
    handle: async ({ request, reply, params: { id } }, services) => {
      // 401 without a signature, 403 for a wrong or expired one; the signature names the owner.
      const { ownerId, expires } = services.urls.verifyScreenshot(id, request.query as SignedQuery);
      const row = await services.repos.testRuns.screenshot(ownerId, id);
      if (!row) throw new AppError('NOT_FOUND', 'Screenshot not found');
      // Cached no longer than the link lives (each link is a new URL, so immutable is safe).
      const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
      return reply
        .type(row.mime)
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('content-length', row.bytes)
        .send(services.blobs.read(row.sha256));
    },
  }),
]);

export const screenshotRoutes = routePlugin(SCREENSHOT_ROUTES);
