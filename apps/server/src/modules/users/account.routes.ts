import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { AccountDeletionService } from './account-deletion.service';
import type { DataExportService } from './data-export.service';
import type { ProfileService } from './profile.service';
import type { UsersService } from './users.service';

/** The base64 of a 5 MB picture, with room for the JSON around it. */
const PHOTO_BODY_LIMIT = 7 * 1024 * 1024 + 1024;

export const accountRoutes: FastifyPluginAsyncZod<{
  users: UsersService;
  profile: ProfileService;
  exports: DataExportService;
  deletion: AccountDeletionService;
}> = async (app, { users, profile, exports, deletion }) => {
  route(app, endpoints.updateProfile, async (request) => {
    const actor = requireActor(request);
    await profile.setDisplayName(actor, request.body.displayName);
    return users.me(actor);
  });
  route(
    app,
    endpoints.setPhoto,
    async (request) => {
      const actor = requireActor(request);
      await profile.setPhoto(actor, request.body.image);
      return users.me(actor);
    },
    { bodyLimit: PHOTO_BODY_LIMIT },
  );
  route(app, endpoints.removePhoto, async (request) => {
    const actor = requireActor(request);
    await profile.removePhoto(actor);
    return users.me(actor);
  });
  // The image's URL changes with each new picture, so the short-lived redirect may be cached too.
  route(app, endpoints.avatar, async (request, reply) =>
    reply.header('Cache-Control', 'public, max-age=3600').redirect(await profile.photoUrl(request.params.photoId), 302),
  );
  route(app, endpoints.changeEmail, (request) =>
    profile.requestEmailChange(requireActor(request), request.body, request.ip),
  );
  route(app, endpoints.confirmEmail, (request) => profile.confirmEmailChange(request.body.token));
  route(app, endpoints.notifications, (request) => profile.preferences(requireActor(request)));
  route(app, endpoints.setNotifications, (request) => profile.setPreferences(requireActor(request), request.body));
  route(app, endpoints.exports, async (request) => ({ exports: await exports.list(requireActor(request)) }));
  route(app, endpoints.startExport, (request) => exports.start(requireActor(request)));
  route(app, endpoints.downloadExport, async (request, reply) =>
    reply
      .header('Cache-Control', 'no-store')
      .redirect(await exports.downloadUrl(request.params.id, request.query.token), 302),
  );
  route(app, endpoints.deleteAccount, (request) => deletion.request(requireActor(request), request.body));
};
