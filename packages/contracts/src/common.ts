import { fileNameProblem, nameProblem, textProblem } from '@mixroom/shared';
import { z } from 'zod';

/** The one error shape every API failure uses. */
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

/** Refuses a name the shared name rule refuses (controls, text-direction marks, separators, dots only), with its reason. */
export const safeName = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((value, context) => {
    const problem = nameProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Refuses a file name the rule refuses, separators included (a file name is one path segment). */
export const safeFileName = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((value, context) => {
    const problem = fileNameProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Refuses free text holding control characters other than tabs and line breaks. */
export const safeText = <T extends z.ZodType<string>>(schema: T) =>
  schema.superRefine((value, context) => {
    const problem = textProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
