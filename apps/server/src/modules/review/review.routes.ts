import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reviewEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import { contentDisposition } from '../../platform/blob/content-disposition';
import type { DifferenceService } from './difference.service';
import type { ReviewService } from './review.service';

export const reviewRoutes: FastifyPluginAsyncZod<{ review: ReviewService; difference: DifferenceService }> = async (
  app,
  { review, difference },
) => {
  route(app, endpoints.note, (request) => review.note(requireActor(request), request.params.id));
  route(app, endpoints.saveNote, (request) =>
    review.saveNote(requireActor(request), request.params.id, request.body.html),
  );
  route(app, endpoints.notePdf, async (request, reply) => {
    const { pdf, fileName } = await review.notePdf(requireActor(request), request.params.id, request.body.html);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', contentDisposition(fileName))
      .send(pdf);
  });
  route(app, endpoints.spectrogram, async (request, reply) => {
    const spectrogram = await review.spectrogram(requireActor(request), request.params.id);
    return 'url' in spectrogram ? spectrogram : reply.status(202).send(spectrogram);
  });
  route(app, endpoints.stream, (request) => review.streamUrl(requireActor(request), request.params.id));
  route(app, endpoints.difference, (request) =>
    difference.difference(requireActor(request), request.params.id, request.query),
  );
};
