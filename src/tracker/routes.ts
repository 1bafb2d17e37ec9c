// GET /tracker.js (no auth, contract §1): the tracking script customers embed with one <script> tag.
import { Elysia } from 'elysia';
import { ApiError } from '../http/errors.ts';
import type { TrackerAsset } from './bundle.ts';
import { trackerResponse } from './response.ts';

export const trackerScriptRoutes = (tracker: () => TrackerAsset | undefined) =>
  new Elysia({ tags: ['Tracking'] }).get(
    '/tracker.js',
    ({ request }) => {
      const asset = tracker();
      if (!asset) throw new ApiError(503, 'Tracking script unavailable');
      return trackerResponse(asset, request);
    },
    {
      detail: {
        summary: 'The tracking script',
        description:
          'Embed with `<script defer src="{base_url}/tracker.js" data-site="pk_live_…"></script>`. ' +
          'Sends pageviews (with the previous page\'s visible time and scroll depth), SPA navigations, outbound link clicks, ' +
          'file downloads, form submits and `[data-track]` clicks to POST /api/v1/event, and exposes `tern.track`, ' +
          '`tern.purchase` and `tern.identify`. Under 3 KB gzipped; no cookies. Served gzipped when accepted, with an ETag ' +
          'and `Cache-Control: public, max-age=3600`. 503 if the script could not be built at start (see the server log).',
        security: [],
        responses: {
          200: { description: 'The script', content: { 'application/javascript': { schema: { type: 'string' } } } },
          304: { description: 'Not modified (If-None-Match matched the ETag)' },
          503: { description: 'The script could not be built', content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } } },
        },
      },
    },
  );
