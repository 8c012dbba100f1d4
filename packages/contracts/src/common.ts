import { z } from 'zod';

/** The one error shape every API failure uses (DESIGN.md §2). */
export const errorResponse = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const idParam = z.object({ id: z.uuid() });
export const isoDate = z.string().meta({ format: 'date-time' });
