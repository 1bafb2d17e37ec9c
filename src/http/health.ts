// GET /health: no auth; 200 once the server accepts events (contract §1), for load balancers and uptime checks.
import { Elysia } from 'elysia';
import { z } from 'zod';
import { envelope, ok } from './envelope.ts';

export const healthRoutes = new Elysia({ name: 'health' }).get('/health', () => ok({ status: 'ok' as const }), {
  response: { 200: envelope(z.object({ status: z.literal('ok') })) },
  detail: { tags: ['Health'], summary: 'Liveness: ok once the server accepts events', security: [] },
});
