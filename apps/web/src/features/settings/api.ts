import { creditEndpoints, userEndpoints, type NotificationPreferences } from '@mixroom/contracts';
import { call } from '../../lib/api-client';

export const getMyCredits = (page: { before?: number | undefined; limit: number }, signal?: AbortSignal) =>
  call(creditEndpoints.mine, { query: page, signal });

export const updateDisplayName = (displayName: string) => call(userEndpoints.updateProfile, { body: { displayName } });
export const setPhoto = (image: string) => call(userEndpoints.setPhoto, { body: { image } });
export const removePhoto = () => call(userEndpoints.removePhoto);
export const changeEmail = (body: { email: string; currentPassword: string }) =>
  call(userEndpoints.changeEmail, { body });
export const confirmEmail = (token: string) => call(userEndpoints.confirmEmail, { body: { token } });
export const setNotifications = (body: NotificationPreferences) => call(userEndpoints.setNotifications, { body });
export const getExports = (signal?: AbortSignal) => call(userEndpoints.exports, { signal });
export const startExport = () => call(userEndpoints.startExport);
export const deleteAccount = (body: { email: string; endGrantedPlans?: boolean }) =>
  call(userEndpoints.deleteAccount, { body });
