// Annotation shapes (contract §8): a dated note shown beside chart points.
import { z } from 'zod';

export const AnnotationSchema = z.object({ id: z.string(), date: z.string(), text: z.string(), created_at: z.string() });
export type Annotation = z.infer<typeof AnnotationSchema>;

export const CreateAnnotationBody = z.object({
  date: z.iso.date(),
  text: z.string().trim().min(1).max(500),
});

export const AnnotationListQuery = z.object({ from: z.iso.date().optional(), to: z.iso.date().optional() });
